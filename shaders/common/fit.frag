#version 330 core
// Fits a picture into a frame of another size for an output that expects a fixed size (the
// virtual camera): scaled with its aspect kept, letterboxed (pad) or filling the frame with
// the overflow cut off (crop); optionally mirrored. Bilinear, sRGB values as they are.
in vec2 v_uv;
out vec4 frag;
uniform sampler2D src;
uniform vec2 u_scale;    // output uv -> picture uv: (uv - 0.5) * u_scale + 0.5
uniform int u_mirror;
uniform vec3 u_pad;      // colour of the bars

void main() {
    vec2 uv = v_uv;
    if (u_mirror != 0) uv.x = 1.0 - uv.x;
    vec2 q = (uv - 0.5) * u_scale + 0.5;
    if (any(lessThan(q, vec2(0.0))) || any(greaterThan(q, vec2(1.0)))) {
        frag = vec4(u_pad, 1.0);
        return;
    }
    frag = vec4(texture(src, q).rgb, 1.0);
}
