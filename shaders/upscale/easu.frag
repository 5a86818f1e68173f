#version 330 core
// The upscale style's EASU pass (upscale/easu.glsl): the source at this target's size.
#include "upscale/easu.glsl"
out vec4 frag;
uniform sampler2D src;
uniform vec2 u_resolution;  // output size

void main() {
    frag = vec4(easu(src, gl_FragCoord.xy, u_resolution), 1.0);
}
