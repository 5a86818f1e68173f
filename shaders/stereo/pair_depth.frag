#version 330 core
// A stereo pair's matched disparity (match pixels, larger = nearer) as nearness 0 .. 1 at
// the view's size: the disparity over the search range, so the comfort controls apply to a
// pair as to a mono picture.
in vec2 v_uv;
out vec4 frag;
uniform sampler2D disparity;
uniform int u_max_disparity;  // the menu's index: 32, 64 or 128 match pixels

void main() {
    float range = float(32 << u_max_disparity);
    frag = vec4(clamp(texture(disparity, v_uv).r / range, 0.0, 1.0), 0.0, 0.0, 1.0);
}
