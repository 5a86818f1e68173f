#version 330 core
// Copies (and resamples) its input.
in vec2 v_uv;
out vec4 frag;
uniform sampler2D src;

void main() {
    frag = texture(src, v_uv);
}
