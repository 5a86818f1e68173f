#version 330 core
// One view of the frame, at the view's size: the frame itself (mono input), or the left or
// right half of a side-by-side pair.
#include "stereo/views.glsl"
in vec2 v_uv;
out vec4 frag;
uniform sampler2D src;
uniform int u_input;  // 0 mono, 1 side by side
uniform int u_eye;    // 0 left, 1 right

void main() {
    frag = vec4(texture(src, view_uv(v_uv, u_input, u_eye)).rgb, 1.0);
}
