#version 330 core
// Pull step of pull-push: a half-size level holding the mean of the finer level's weighted
// (premultiplied) tensors, so valid structure spreads into flat regions.
in vec2 v_uv;
out vec4 frag;
uniform sampler2D fine;

void main() {
    vec2 t = 0.5 / vec2(textureSize(fine, 0));
    frag = 0.25 * (texture(fine, v_uv + vec2(-t.x, -t.y)) + texture(fine, v_uv + vec2(t.x, -t.y))
                 + texture(fine, v_uv + vec2(-t.x, t.y)) + texture(fine, v_uv + vec2(t.x, t.y)));
}
