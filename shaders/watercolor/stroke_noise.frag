#version 330 core
// Seeded white noise (uniform in [0,1]) on cells of u_stroke_grain pixels: the raw material
// of the brush-stroke texture.
#include "common/noise.glsl"
out vec4 frag;
uniform int u_seed;
uniform float u_stroke_grain;
uniform float u_scale;
uniform float u_target_scale;

void main() {
    // Cells are sized in source pixels so the grain looks the same at any processing scale.
    vec2 p = gl_FragCoord.xy / (u_scale * u_target_scale * u_stroke_grain);
    frag = vec4(vec3(hash2(ivec2(floor(p)), u_seed, 11)), 1.0);
}
