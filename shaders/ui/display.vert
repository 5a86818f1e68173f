#version 330 core
// A quad over u_rect (NDC: x0, y_top, x1, y_bottom). v_uv runs 0..1 left to right and top to
// bottom, so row 0 of an uploaded image appears at the top.
uniform vec4 u_rect;
out vec2 v_uv;

void main() {
    vec2 corner = vec2(float(gl_VertexID & 1), float(gl_VertexID >> 1));
    v_uv = corner;
    gl_Position = vec4(mix(u_rect.xy, u_rect.zw, corner), 0.0, 1.0);
}
