#version 330 core
// Source frame -> work-resolution image (sRGB values in [0,1], float).
// tiles: reach 0
in vec2 v_uv;
out vec4 frag;
uniform sampler2D source;

void main() {
    frag = vec4(clamp(texture(source, v_uv).rgb, 0.0, 1.0), 1.0);
}
