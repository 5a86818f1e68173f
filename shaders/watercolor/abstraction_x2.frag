#version 330 core
// A draft's abstracted lightness enlarged x2 by the learned filters (upscale/learned.glsl),
// kept at the small size: each texel holds its four enlarged pixels, phases (0,0), (1,0),
// (0,1), (1,1) in x, y, z, w (L/100, anti-ringing clamped). abstraction_up lays them out.
// One 7x7 read serves all four (on a CPU renderer the reads are most of the cost).
out vec4 frag;
uniform sampler2D src;      // Lab, abstracted, small

float lr_value(ivec2 q) {
    return texelFetch(src, q, 0).x * 0.01;
}

#include "upscale/learned.glsl"

uniform sampler2D filters;

void main() {
    vec4 lo, hi;
    vec4 y = learned_x2_quad(filters, ivec2(gl_FragCoord.xy), textureSize(src, 0), lo, hi);
    frag = clamp(y, lo, hi);
}
