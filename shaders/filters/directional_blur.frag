#version 330 core
// Directional (linear motion) blur: the mean along a line `length` px long through each
// pixel, at `angle` degrees counter-clockwise from the horizontal as the picture is seen
// (row 0 at the top). See line_blur.glsl for the kernel.
#include "filters/line_blur.glsl"
out vec4 frag;
uniform sampler2D src;
uniform vec2 u_resolution;
uniform float u_angle;   // degrees
uniform float u_length;  // px

void main() {
    vec2 uv = gl_FragCoord.xy / u_resolution;
    float a = radians(u_angle);
    // texture y grows with the row index, i.e. downwards on screen
    vec2 step_uv = vec2(cos(a), -sin(a)) / vec2(textureSize(src, 0));
    frag = vec4(line_blur(src, uv, step_uv, u_length).rgb, 1.0);
}
