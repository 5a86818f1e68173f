// The mean of `src` along a straight segment centred on `uv`: a box `len` px long along a
// direction given as one px step in UV units (`step_uv`). Taps are one px apart at offsets
// k = -n..n, each weighted by the overlap of its unit cell [k - 0.5, k + 0.5] with
// [-len/2, len/2] (weights sum to len; fractional lengths are smooth; len <= 1 is the pixel
// itself). Taps are bilinear lookups; clamp-to-edge sampling replicates the borders. Used by
// the directional and the motion-following blur (motion_blur style).

const int LINE_MAX_HALF = 48;  // up to 97 taps: len <= 96 px

vec4 line_blur(sampler2D src, vec2 uv, vec2 step_uv, float len) {
    float reach = 0.5 * clamp(len, 0.0, 2.0 * float(LINE_MAX_HALF)) + 0.5;
    vec4 sum = texture(src, uv);
    float norm = 1.0;
    for (int k = 1; k <= LINE_MAX_HALF; k++) {
        float w = clamp(reach - float(k), 0.0, 1.0);
        if (w <= 0.0) break;
        sum += w * (texture(src, uv + float(k) * step_uv) + texture(src, uv - float(k) * step_uv));
        norm += 2.0 * w;
    }
    return sum / norm;
}
