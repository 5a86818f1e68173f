#version 330 core
// A draft's abstraction enlarged to the size the washes are laid at (issue 12): the
// abstraction, the costly part, is painted small; its tones are quantized at full quality,
// so the washes' borders fall where a full-size render puts them. At exactly twice the size
// the lightness L goes through the learned x2 filters (trained on photos' luma, which L*/100
// resembles), anti-ringing clamped; a and b, and other ratios, are bilinear (all of it
// with the pipeline's plain bilinear enlargement).
out vec4 frag;
uniform sampler2D src;      // Lab, abstracted, small (linear filtering)
uniform sampler2D filters;
uniform vec2 u_resolution;  // this (output) target
uniform int u_learned;      // 0: all bilinear (a draft enlarged plainly, for comparisons)

float lr_value(ivec2 q) {
    return texelFetch(src, q, 0).x * 0.01;
}

#include "upscale/learned.glsl"

void main() {
    vec4 lab = texture(src, gl_FragCoord.xy / u_resolution);
    ivec2 lr = textureSize(src, 0);
    ivec2 ratio = ivec2(u_resolution) - 2 * lr;
    if (u_learned != 0 && abs(ratio.x) <= 1 && abs(ratio.y) <= 1) {
        float lo, hi;
        float y = learned_x2(filters, ivec2(gl_FragCoord.xy), lr, lo, hi);
        lab.x = 100.0 * clamp(y, lo, hi);
    }
    frag = lab;
}
