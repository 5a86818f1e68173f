// Advected canvas: two layers of texture coordinates that move with the content (optical
// flow), so noise and strokes stick to the picture instead of the screen. Each layer texel
// holds (source-pixel coordinate .xy, age .z, stretch .w = distortion / budget in [0,1]).
// Layer 1's first cycle is marked by a negative age (it re-seeds at half the distortion, so
// the layers' re-seeds alternate and one is always fully visible).

const float CANVAS_FADE_FRAMES = 8.0;

float canvas_age(vec4 st) {
    return st.z < 0.0 ? -st.z - 1.0 : st.z;
}

// Visibility of a layer: fades in after a re-seed, out as it distorts towards its next one.
float canvas_weight(vec4 st) {
    float fade_in = min(1.0, (canvas_age(st) + 1.0) / CANVAS_FADE_FRAMES);
    return max(1e-3, fade_in * (1.0 - smoothstep(0.5, 1.0, st.w)));
}

// Blend two samples of a noise with mean 0.5 whose correlation is rho, keeping the contrast
// of a single sample (Bousseau et al. 2007: (T - mu) / sqrt(sum w_i^2) + mu, with the
// cross term for correlated layers).
float canvas_blend(float n0, float n1, float w0, float w1, float rho) {
    float var = w0 * w0 + w1 * w1 + 2.0 * rho * w0 * w1;
    return 0.5 + (w0 * (n0 - 0.5) + w1 * (n1 - 0.5)) / sqrt(max(var, 1e-8));
}

// Approximate correlation of smooth value noise of feature size `scale` px.
float smooth_rho(vec2 d, float scale) {
    return exp(-dot(d, d) / (scale * scale));
}

// The paper (canvas) sheet follows the global camera motion: u_canvas = (a, b, tx, ty) is
// the similarity from this frame's source pixels to canvas coordinates.
vec2 canvas_point(vec4 xf, vec2 p) {
    return vec2(xf.x * p.x - xf.y * p.y + xf.z, xf.y * p.x + xf.x * p.y + xf.w);
}
