#version 330 core
// Draws a texture (result, original or an intermediate target) mapped for display.
// u_mode: 0 colour, 1 single channel as grey, 2 flow (unit tangent .xy, anisotropy .z) as
// hue, 3 structure tensor (E, |F|, G; tiny values) on a log scale, 4 solid u_color,
// 5 texture coordinates in pixels (.xy; the advected canvas) as a 24 px colour grid.
in vec2 v_uv;
out vec4 frag;
uniform sampler2D u_tex;
uniform int u_mode;
uniform vec2 u_crop;    // visible range of v_uv.x (split compare)
uniform float u_gain;
uniform vec4 u_color;

vec3 hue(float h) {
    vec3 k = clamp(abs(fract(h + vec3(0.0, 2.0, 1.0) / 3.0) * 6.0 - 3.0) - 1.0, 0.0, 1.0);
    return k;
}

void main() {
    if (v_uv.x < u_crop.x || v_uv.x > u_crop.y) discard;
    if (u_mode == 4) { frag = u_color; return; }
    vec4 t = texture(u_tex, v_uv);
    vec3 c;
    if (u_mode == 1) {
        c = vec3(t.r);
    } else if (u_mode == 2) {
        // A tangent and its negation are the same direction: hue follows twice the angle.
        float angle = atan(t.y, t.x);
        float a = clamp(t.z, 0.0, 1.0);
        c = mix(vec3(0.92), 0.95 * hue(angle / 3.14159265), 0.25 + 0.55 * a);
    } else if (u_mode == 3) {
        c = log(1.0 + u_gain * abs(t.xyz)) / log(1.0 + u_gain);  // log scale: tiny values show
    } else if (u_mode == 5) {
        c = vec3(fract(t.xy / 24.0), 0.6);  // coordinates (px): a grid that moves with them
    } else {
        c = t.rgb;
    }
    frag = vec4(clamp(c, 0.0, 1.0), 1.0);
}
