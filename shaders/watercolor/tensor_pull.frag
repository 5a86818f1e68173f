#version 330 core
// Pull step of pull-push: a half-size level holding the mean of the finer level's weighted
// (premultiplied) tensors, so valid structure spreads into flat regions.
// tiles: reach 0
in vec2 v_uv;
out vec4 frag;
uniform sampler2D fine;
uniform vec4 u_window;  // whole-picture uv -> a tile's (engine/tiles.py); identity untiled

void main() {
    vec2 uv = v_uv * u_window.xy + u_window.zw;
    vec2 t = 0.5 / vec2(textureSize(fine, 0));
    frag = 0.25 * (texture(fine, uv + vec2(-t.x, -t.y)) + texture(fine, uv + vec2(t.x, -t.y))
                 + texture(fine, uv + vec2(-t.x, t.y)) + texture(fine, uv + vec2(t.x, t.y)));
}
