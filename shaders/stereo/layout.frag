#version 330 core
// The pair in the chosen layout: Dubois' least-squares red-cyan anaglyph (in linear light),
// side by side (full or half width each), top-bottom, or the left view's depth as grey.
#include "common/color.glsl"
in vec2 v_uv;
out vec4 frag;
uniform sampler2D left_view;
uniform sampler2D right_view;
uniform sampler2D depth;
uniform int u_output;  // 0 anaglyph, 1 sbs, 2 sbs_half, 3 tb, 4 depth

// Dubois (2001), red-cyan, columns as GLSL matrices are column-major.
const mat3 DUBOIS_L = mat3(0.456100, -0.0400822, -0.0152161,
                           0.500484, -0.0378246, -0.0205971,
                           0.176381, -0.0157589, -0.00546856);
const mat3 DUBOIS_R = mat3(-0.0434706, 0.378476, -0.0721527,
                           -0.0879388, 0.73364, -0.112961,
                           -0.00155529, -0.0184503, 1.2264);

void main() {
    vec2 uv = v_uv;
    vec3 c;
    if (u_output == 0) {
        vec3 l = srgb_to_linear(texture(left_view, uv).rgb);
        vec3 r = srgb_to_linear(texture(right_view, uv).rgb);
        c = linear_to_srgb(clamp(DUBOIS_L * l + DUBOIS_R * r, 0.0, 1.0));
    } else if (u_output == 1 || u_output == 2) {
        bool right = uv.x >= 0.5;
        vec2 vuv = vec2(fract(uv.x * 2.0), uv.y);
        c = right ? texture(right_view, vuv).rgb : texture(left_view, vuv).rgb;
    } else if (u_output == 3) {
        bool bottom = uv.y >= 0.5;  // row 0 is the top: the left view on top
        vec2 vuv = vec2(uv.x, fract(uv.y * 2.0));
        c = bottom ? texture(right_view, vuv).rgb : texture(left_view, vuv).rgb;
    } else {
        c = vec3(texture(depth, uv).r);
    }
    frag = vec4(c, 1.0);
}
