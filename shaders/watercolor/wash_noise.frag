#version 330 core
// Low-frequency noise of the wash, at a quarter of the source resolution (it has no fine
// detail, so the composite samples it with linear filtering): .x turbulence (fBm, Bousseau's
// turbulent flow), .yz the hand-tremor displacement field (wobble), .w the border noise that
// moves the washes' tone thresholds, all seeded. Turbulence and border noise move with the
// content through the advected canvas; the tremor follows the paper sheet.
// tiles: reach 0
#include "common/noise.glsl"
#include "common/canvas.glsl"
#include "common/boil.glsl"
out vec4 frag;
uniform sampler2D canvas0;
uniform sampler2D canvas1;
uniform int u_seed;
uniform int u_temporal;
uniform int u_history;
uniform float u_target_scale;   // of the source size
uniform vec2 u_resolution;
uniform vec4 u_canvas;          // source px -> paper sheet (see canvas_point)
uniform float u_turbulence_scale;
uniform float u_px;      // work px per reference px
uniform float u_scale;   // work px per source px
uniform vec2 u_origin;  // a tile's corner in the whole picture, source px (0 untiled)
uniform int u_frame;
uniform float u_steadiness;

const float BORDER_SCALE = 40.0;  // reference px: borders wander over about this length

void main() {
    vec2 p = gl_FragCoord.xy / u_target_scale + u_origin;  // source pixels
    float ref = u_px / u_scale;  // source px per reference px
    float ts = max(u_turbulence_scale, 1.0) * ref;
    float bs = BORDER_SCALE * ref;
    float turb;
    float border;
    if (u_temporal == 0 || u_history == 0) {
        turb = fbm(p / ts, 4, u_seed, 201);
        border = fbm(p / bs, 2, u_seed, 221);
    } else {
        vec2 uv = gl_FragCoord.xy / u_resolution;
        vec4 a = texture(canvas0, uv);
        vec4 b = texture(canvas1, uv);
        turb = canvas_blend(fbm(a.xy / ts, 4, u_seed, 201), fbm(b.xy / ts, 4, u_seed, 201),
                            canvas_weight(a), canvas_weight(b), smooth_rho(a.xy - b.xy, ts));
        border = canvas_blend(fbm(a.xy / bs, 2, u_seed, 221),
                              fbm(b.xy / bs, 2, u_seed, 221), canvas_weight(a),
                              canvas_weight(b), smooth_rho(a.xy - b.xy, bs));
    }
    // the tremor follows the sheet; a boil renews it on every second frame (outlines jitter)
    vec2 q = (canvas_point(u_canvas, p) + boil_shift(u_steadiness, u_frame, u_seed) * ref)
             / (48.0 * ref);
    frag = vec4(turb, value_noise(q, u_seed, 401), value_noise(q, u_seed, 402), border);
}
