#version 330 core
// One layer of the advected canvas (see common/canvas.glsl): carry last frame's coordinates
// along the backward optical flow; re-seed to the identity where the layer has distorted
// past its budget. Beyond the frame border the coordinate map is extended linearly, which is
// exact for camera pans.
// tiles: reach 0 if u_history == 0 else None
#include "common/canvas.glsl"
#include "common/noise.glsl"
#include "common/boil.glsl"
out vec4 frag;
uniform sampler2D prev;   // this layer last frame
uniform sampler2D flow;   // backward flow, UV units
uniform int u_history;
uniform int u_layer;
uniform float u_scale;          // processing scale: source px = work px / u_scale
uniform float u_target_scale;   // this layer's size relative to the work size
uniform vec4 u_canvas;          // this frame's pixels -> the paper sheet (identity at a cut)
uniform vec2 u_origin;  // a tile's corner in the whole picture, source px (0 untiled)
uniform float u_px;     // work px per reference px
uniform int u_frame;
uniform int u_seed;
uniform float u_steadiness;

const float BUDGET = 0.6;  // re-seed when |J - I| exceeds this

vec4 warped(vec2 x, vec2 size) {
    vec2 uv = x / size;
    vec2 p = (uv + texture(flow, uv).xy) * size;
    vec2 inside = clamp(p, vec2(0.5), size - 0.5);
    vec4 st = texture(prev, inside / size);
    return vec4(st.xy + (p - inside) / (u_scale * u_target_scale), st.zw);
}

// One column of the coordinate map's Jacobian: the one-sided difference closer to the
// identity, so a seam between a re-seeded and an old region does not count as distortion.
vec2 jacobian_column(vec2 c, vec2 plus, vec2 minus, vec2 unit) {
    vec2 fwd = (plus - c) * (u_scale * u_target_scale);
    vec2 bwd = (c - minus) * (u_scale * u_target_scale);
    return length(fwd - unit) < length(bwd - unit) ? fwd : bwd;
}

void main() {
    vec2 size = vec2(textureSize(prev, 0));
    vec2 x = gl_FragCoord.xy;
    vec2 ident = x / (u_scale * u_target_scale) + u_origin;
    float budget_first = u_layer == 1 ? 0.5 * BUDGET : BUDGET;
    if (u_history == 0) {
        // Fresh canvas: both layers where the paper sheet is (the identity after a cut; a
        // render that starts mid-shot, like a chunk of a long video, continues the sheet the
        // camera has moved since the cut), fully visible; layer 1 marked as in its first
        // (half-budget) cycle by a negative age.
        float age = CANVAS_FADE_FRAMES;
        frag = vec4(canvas_point(u_canvas, ident), u_layer == 1 ? -age - 1.0 : age, 0.0);
        return;
    }
    vec4 c = warped(x, size);
    vec2 jx = jacobian_column(c.xy, warped(x + vec2(1.0, 0.0), size).xy,
                              warped(x - vec2(1.0, 0.0), size).xy, vec2(1.0, 0.0));
    vec2 jy = jacobian_column(c.xy, warped(x + vec2(0.0, 1.0), size).xy,
                              warped(x - vec2(0.0, 1.0), size).xy, vec2(0.0, 1.0));
    float distortion = length(jx - vec2(1.0, 0.0)) + length(jy - vec2(0.0, 1.0));
    bool first_cycle = c.z < 0.0;
    float budget = first_cycle ? budget_first : BUDGET;
    float stretch = distortion / budget;
    if (stretch >= 1.0) {
        frag = vec4(ident, 0.0, 0.0);  // re-seed
        return;
    }
    float age = canvas_age(c) + 1.0;
    // both layers jump alike, so their blend keeps its contrast
    vec2 boil = boil_jump(u_steadiness, u_frame, u_seed) * (u_px / u_scale);
    frag = vec4(c.xy + boil, first_cycle ? -age - 1.0 : age, stretch);
}
