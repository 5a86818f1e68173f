#version 330 core
// Canny, last step: strong edges (after hysteresis) as white lines on black, like the
// Sobel mode (or inverted: dark lines on white paper). Weak edges left unjoined are dropped.
// tiles: reach 0
#include "filters/canny.glsl"
out vec4 frag;
uniform sampler2D state;
uniform int u_invert;

void main() {
    float m = canny_strong(texelFetch(state, ivec2(gl_FragCoord.xy), 0).r) ? 1.0 : 0.0;
    frag = vec4(vec3(u_invert != 0 ? 1.0 - m : m), 1.0);
}
