#version 330 core
// Enlargement with a Catmull-Rom bicubic (upscale/bicubic.glsl) kept within the range of
// the 2x2 nearest input texels: no ringing, and cheaper than EASU on a CPU renderer.
#include "upscale/bicubic.glsl"
out vec4 frag;
uniform sampler2D src;
uniform vec2 u_resolution;

void main() {
    vec3 lo, hi;
    vec3 c = bicubic(src, gl_FragCoord.xy, u_resolution, lo, hi);
    frag = vec4(clamp(c, lo, hi), 1.0);
}
