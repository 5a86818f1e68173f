#version 330 core
// Seeded noise in [0,1] with features of u_stroke_grain source pixels: the raw
// material of the brush-stroke texture. With the temporal canvas on, the cells are looked up
// through the advected coordinates, so strokes move with the content.
// tiles: reach 0
#include "common/noise.glsl"
#include "common/canvas.glsl"
out vec4 frag;
uniform sampler2D canvas0;
uniform sampler2D canvas1;
uniform int u_seed;
uniform int u_temporal;
uniform int u_history;
uniform float u_stroke_grain;
uniform float u_scale;
uniform float u_target_scale;
uniform vec2 u_resolution;
uniform vec2 u_origin;  // a tile's corner in the whole picture, source px (0 untiled)

// Value noise (smoothly interpolated), so sub-pixel motion moves it smoothly, rescaled to
// roughly the contrast of white noise.
float cell_noise(vec2 p_src) {
    return clamp(0.5 + 1.6 * (value_noise(p_src / u_stroke_grain, u_seed, 11) - 0.5), 0.0, 1.0);
}

void main() {
    if (u_temporal == 0 || u_history == 0) {
        frag = vec4(vec3(cell_noise(gl_FragCoord.xy / (u_scale * u_target_scale) + u_origin)), 1.0);
        return;
    }
    vec2 uv = gl_FragCoord.xy / u_resolution;
    vec4 a = texture(canvas0, uv);
    vec4 b = texture(canvas1, uv);
    float n = canvas_blend(cell_noise(a.xy), cell_noise(b.xy), canvas_weight(a),
                           canvas_weight(b), smooth_rho(a.xy - b.xy, u_stroke_grain));
    frag = vec4(vec3(n), 1.0);
}
