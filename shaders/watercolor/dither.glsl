// Triangular dither of one step of the stored picture, so graded skies show no bands: a
// fixed pattern on the picture's pixels (a still scene does not shimmer), seeded. Shared by
// the composite and the draft's paper finish. Needs noise.glsl.
uniform int u_dither;
uniform float u_levels;  // steps of the stored picture (255, or 65535 when deep)

vec3 dithered(vec3 c, ivec2 pixel, int seed) {
    if (u_dither == 0) {
        return c;
    }
    uint key = noise_key(seed, 601);
    float n = hash_key(pixel, key) + hash_key(pixel, key ^ 0x9e3779b9u) - 1.0;
    // none within a step of black and white: black paper stays black, pure white white
    vec3 room = clamp(min(c, 1.0 - c) * u_levels, 0.0, 1.0);
    return c + n * room / u_levels;
}
