#version 330 core
// x2 enlargement with learned filters (upscale/learned.glsl) on luma. Chroma is cheap: the
// bilinear picture carries the filtered luma's detail. With u_antiring the luma is pulled
// into the range of its 2x2 low-resolution neighbours (no halos).
out vec4 frag;
uniform sampler2D src;      // low resolution, sRGB values (linear filtering)
uniform sampler2D filters;
uniform vec2 u_resolution;  // this (output) target
uniform float u_antiring;

float luma(vec3 c) {
    return dot(c, vec3(0.299, 0.587, 0.114));
}

float lr_value(ivec2 q) {
    return luma(texelFetch(src, q, 0).rgb);
}

#include "upscale/learned.glsl"

void main() {
    float lo, hi;
    float y = learned_x2(filters, ivec2(gl_FragCoord.xy), textureSize(src, 0), lo, hi);
    y = mix(y, clamp(y, lo, hi), u_antiring);
    vec3 rgb = texture(src, gl_FragCoord.xy / u_resolution).rgb;  // bilinear x2
    frag = vec4(clamp(rgb + (y - luma(rgb)), 0.0, 1.0), 1.0);
}
