#version 330 core
// Line integral convolution of an image along the tangent flow. With u_renormalize the
// result's deviation from 0.5 is rescaled by 1/sqrt(sum w^2), so LIC of white noise keeps the
// contrast of the noise (brush-stroke texture); without it, it is flow-aligned smoothing.
// tiles: reach min(24, ceil(2 * u_sigma * u_target_scale)) + 1
#include "common/flow.glsl"
out vec4 frag;
uniform sampler2D src;
uniform sampler2D tfm;   // nearest
uniform float u_sigma;          // in work pixels
uniform float u_target_scale;   // this target's size relative to the work size
uniform vec2 u_resolution;
uniform vec2 u_work_size;
uniform int u_renormalize;

void main() {
    float w2;
    // One step per texel of this target (two work px at half size).
    vec4 c = lic(src, tfm, gl_FragCoord.xy / u_resolution, u_work_size, u_sigma,
                 1.0 / u_target_scale, w2);
    if (u_renormalize != 0) {
        c.rgb = clamp(0.5 + (c.rgb - 0.5) / sqrt(w2) * 0.5, 0.0, 1.0);
    }
    frag = vec4(c.rgb, 1.0);
}
