#version 330 core
// One direction of a separable Gaussian blur (radius ceil(2.45 sigma), replicated borders).
// Sigma is in work pixels, or reference pixels with u_reference (see u_px), scaled to this
// target's pixels (with u_reference at least one texel). Taps sit at texel centres of this
// target: exact texels (texelFetch) when the input has the same size, bilinear lookups
// (a downsampling blur) when the target is smaller.
// tiles: reach along(u_dir, min(32, ceil(2.45 * (u_sigma * u_target_scale if not u_reference
// tiles:     else max(u_sigma * u_px * u_target_scale, 1.0 if u_sigma > 0 else 0.0)))))
out vec4 frag;
uniform sampler2D src;
uniform vec2 u_dir;      // (1,0) or (0,1)
uniform float u_sigma;
uniform float u_target_scale;
uniform vec2 u_resolution;
uniform float u_px;
uniform int u_reference;

const int MAX_RADIUS = 32;

// The weight exp(-k^2 / 2 sigma^2) of the next tap out, by recurrence (w_k = w_(k-1) q_k,
// q_k = q_(k-1) g^2, g = exp(-1 / 2 sigma^2), starting from w = 1, q = g): no exp per tap.
float next_weight(inout float w, inout float q, float g) {
    w *= q;
    q *= g * g;
    return w;
}

void main() {
    vec2 uv = gl_FragCoord.xy / u_resolution;
    float sigma = u_sigma * u_target_scale;
    if (u_reference != 0 && sigma > 0.0) {
        // Reference px -> this target's px, never below one texel: a blur (a wet edge, a
        // bleed) must stay visible on small frames.
        sigma = max(u_sigma * u_px * u_target_scale, 1.0);
    }
    if (sigma <= 0.0) {
        frag = texture(src, uv);
        return;
    }
    int r = min(MAX_RADIUS, int(ceil(2.45 * sigma)));
    float g = exp(-1.0 / (2.0 * sigma * sigma));
    float q = g;
    float w = 1.0;
    float norm = 1.0;
    vec4 sum;
    ivec2 size = textureSize(src, 0);
    if (size == ivec2(u_resolution)) {
        // every tap on a texel: fetched, not filtered (half the time on a CPU renderer)
        ivec2 p = ivec2(gl_FragCoord.xy);
        ivec2 d = ivec2(u_dir);
        ivec2 hi = size - 1;
        sum = texelFetch(src, p, 0);
        for (int k = 1; k <= MAX_RADIUS; k++) {
            if (k > r) break;
            float wk = next_weight(w, q, g);
            sum += wk * (texelFetch(src, clamp(p + k * d, ivec2(0), hi), 0)
                         + texelFetch(src, clamp(p - k * d, ivec2(0), hi), 0));
            norm += 2.0 * wk;
        }
    } else {
        vec2 lo = 0.5 / u_resolution;  // keep taps inside the border texels: replicated edges
        vec2 hi = 1.0 - lo;
        vec2 step = u_dir / u_resolution;
        sum = texture(src, uv);
        for (int k = 1; k <= MAX_RADIUS; k++) {
            if (k > r) break;
            float wk = next_weight(w, q, g);
            sum += wk * (texture(src, clamp(uv + float(k) * step, lo, hi))
                         + texture(src, clamp(uv - float(k) * step, lo, hi)));
            norm += 2.0 * wk;
        }
    }
    frag = sum / norm;
}
