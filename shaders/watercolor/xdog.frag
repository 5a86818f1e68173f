#version 330 core
// XDoG outlines: the DoG response smoothed along the flow (LIC, sigma_m), then the soft
// threshold T = 1 if D >= eps else 1 + tanh(phi (D - eps)). 1 = paper, 0 = ink.
// tiles: reach min(24, ceil(2 * u_outline_smoothing)) + 1
#include "common/flow.glsl"
out vec4 frag;
uniform sampler2D dog;
uniform sampler2D tfm;   // nearest
uniform float u_outline_smoothing;
uniform float u_outline_eps;
uniform float u_outline_phi;
uniform vec2 u_resolution;   // the work size

void main() {
    float w2;
    float D = lic(dog, tfm, gl_FragCoord.xy / u_resolution, u_resolution, u_outline_smoothing,
                  1.0, w2).x;
    float T = D >= u_outline_eps ? 1.0 : 1.0 + tanh(u_outline_phi * (D - u_outline_eps));
    frag = vec4(clamp(T, 0.0, 1.0), 0.0, 0.0, 1.0);
}
