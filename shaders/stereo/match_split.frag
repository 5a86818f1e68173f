#version 330 core
// Stereo matching, step 1: one view of the side-by-side frame at the match size (the left
// or right half, u_eye), averaged over the view pixel's footprint in the frame (up to 4 x 4
// bilinear taps: no aliasing at match_scale 0.25); .rgb the colour, .a its grey (BT.601).
#include "stereo/views.glsl"
in vec2 v_uv;
out vec4 frag;
uniform sampler2D src;
uniform vec2 src_size;
uniform vec2 u_resolution;
uniform int u_eye;  // 0 left, 1 right

void main() {
    vec2 half_size = vec2(0.5, 1.0) * src_size;             // a view's pixels in the frame
    vec2 footprint = half_size / u_resolution;             // frame pixels per view pixel
    ivec2 n = clamp(ivec2(ceil(footprint * 0.5 - 1e-3)), ivec2(1), ivec2(4));
    // keep the taps inside this view's half (no bleeding across the middle)
    float lo = (u_eye == 1 ? 0.5 : 0.0) + 0.5 / src_size.x;
    float hi = (u_eye == 1 ? 1.0 : 0.5) - 0.5 / src_size.x;
    vec3 sum = vec3(0.0);
    for (int j = 0; j < 4; j++) {
        if (j >= n.y) break;
        for (int i = 0; i < 4; i++) {
            if (i >= n.x) break;
            vec2 off = (vec2(i, j) + 0.5) / vec2(n) - 0.5;   // -0.5 .. 0.5 of the footprint
            vec2 uv = view_uv(v_uv + off / u_resolution, 1, u_eye);
            uv.x = clamp(uv.x, lo, hi);
            sum += texture(src, uv).rgb;
        }
    }
    vec3 c = sum / float(n.x * n.y);
    frag = vec4(c, dot(c, vec3(0.299, 0.587, 0.114)));
}
