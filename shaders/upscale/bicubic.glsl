// Catmull-Rom bicubic resampling (sharp, little ringing): the 4x4 texels around the
// position, separable weights. lo/hi: the range of the 2x2 nearest texels (an enlargement
// clamped to it has no ringing at all).

vec4 bicubic_weights(float t) {
    float t2 = t * t, t3 = t2 * t;
    return vec4(-0.5 * t3 + t2 - 0.5 * t, 1.5 * t3 - 2.5 * t2 + 1.0,
                -1.5 * t3 + 2.0 * t2 + 0.5 * t, 0.5 * t3 - 0.5 * t2);
}

// The picture in `src` at output pixel `frag_coord` of an output of `out_size`.
vec3 bicubic(sampler2D src, vec2 frag_coord, vec2 out_size, out vec3 lo, out vec3 hi) {
    vec2 in_size = vec2(textureSize(src, 0));
    ivec2 lim = ivec2(in_size) - 1;
    vec2 pp = frag_coord * (in_size / out_size) - 0.5;
    vec2 fp = floor(pp);
    vec2 t = pp - fp;
    vec4 wx = bicubic_weights(t.x), wy = bicubic_weights(t.y);
    vec3 sum = vec3(0.0);
    lo = vec3(1e30);
    hi = vec3(-1e30);
    for (int j = 0; j < 4; j++) {
        vec3 row = vec3(0.0);
        for (int i = 0; i < 4; i++) {
            vec3 c = texelFetch(src, clamp(ivec2(fp) + ivec2(i - 1, j - 1), ivec2(0), lim), 0).rgb;
            row += wx[i] * c;
            if (i == 1 || i == 2) {
                if (j == 1 || j == 2) {
                    lo = min(lo, c);
                    hi = max(hi, c);
                }
            }
        }
        sum += wy[j] * row;
    }
    return sum;
}
