#version 330 core
// The painted vignette: the figure painted, the rest fading out into bare paper, as a painter
// leaves a portrait (1 painted, 0 bare paper). Near the figure the background is painted and
// gets lighter outwards (a graded wash), then stops at a hard, ragged edge: a threshold of
// the figure, its neighbourhood, the distance to the frame's borders and low-frequency noise
// (features about a tenth of the picture, on the paper sheet: it moves with the camera).
// The slider raises the threshold; "bare paper" keeps the figure alone. This target is a
// quarter of the source size, so the edge itself is left to the composite: .x the signed
// distance to it in units of its ramp, 0.5 + s / 4 (0.25 bare .. 0.75 painted: a threshold of
// the bilinearly enlarged value has smooth outlines, an enlarged threshold has stair-steps),
// .y the grade (0 where the wash is thinnest, at its edge .. 1 full; the composite thins a
// dark wash more than a light one: composite.frag graded_out), .z how near the figure (1 on it
// and at its outline .. 0 far out: the wash's edge pools less pigment far out, a light
// tide-line, composite.frag RIM_FAR). 1, 1, 1 (cleared): painted.
// tiles: reach 0
#include "common/noise.glsl"
#include "common/canvas.glsl"
out vec4 frag;
uniform sampler2D figure;  // .x the figure, .y near it, .z the face (figure.frag, carried
                           // along the flow)
uniform vec2 u_resolution;
uniform vec2 u_picture;    // the whole picture's size, source px
uniform vec2 u_origin;     // a tile's corner in the whole picture, source px (0 untiled)
uniform float u_target_scale;  // of the source size
uniform vec4 u_canvas;     // source px -> paper sheet
uniform int u_seed;
uniform int u_subject;
uniform int u_background;  // 0 painted, 1 loose wash, 2 bare paper
uniform float u_vignette;
uniform vec2 u_light;      // the main face's light (-1 from the left .. 1 from the right) and
                           // its centre's x, source px of the whole picture
#include "watercolor/borders.glsl"
#include "watercolor/figure_rest.glsl"

const float RAGGED = 0.7;  // the noise's weight: how far the boundary wanders
// Round the figure the wash's edge wanders no faster than the wash thins: where it thins
// slowly (far out, or where the figure's neighbourhood fading outwards and the frame's border
// fade rising inwards nearly cancel) the noise's own slope outran it, and its bumps crossed
// the threshold on their own as drops and islands cut off from the wash, its dips as holes
// (trial F7, finding 3). Bounded, the noise moves the edge in and out, as before where the
// wash thins fast, and never tears it apart.
const float WASH_SLOPE = 1.0;  // the noise's slope (fbm, its cell 0.1 of the short side)
                               // allowed, in units of the wash's own
const float SOFT = 0.03;   // half the threshold's hard ramp
const float GRADE = 0.5;   // the field's span over which a wash lightens towards its edge
const float BORDER = 0.2;  // of the short side: the frame's borders fade over this far
const vec2 LIT = vec2(0.15, 0.5);  // how one-sided the light must be for the counterchange
const float LIT_SPAN = 0.2;  // of the short side: the wash turns from one side to the other
const float BORDER_HOLD = 0.15;  // of the short side: how far the borders' fades stay put
                                // on the sheet as the camera moves
const float BORDER_WANDER = 0.06;  // of the short side: how far the figure's fade at the
                                  // frame's borders wanders (slowly: a line, never islands)
// Of the short side (a portrait's face is about a quarter of it; not the face's own size,
// which changes from frame to frame: the flicks would be drawn anew):
const float FLICKS = 0.03;  // how far the figure's stop at the frame's bottom reaches in and
                            // out in dry flicks along the body
const vec2 FLICK_CELL = vec2(0.03, 0.125);  // a flick's width, length (at least 3 texels
                                            // of this quarter-size target: finer aliased)
const vec2 FACE_HELD = vec2(0.2, 0.6);  // the face (its oval fading out past it) kept whole
const float BODY_GRADE = 0.25;  // of the figure's field: it thins towards that stop over this
// How far the wash round the figure spreads on its wide side (of the figure's neighbourhood;
// on its narrow side 0.15, -0.3 on a lit face's shadow side: the counterchange). Round a head
// it spreads this far on every side: narrower, it stopped against the hair there, the
// background kept as a cut-out island stuck to one side of the head (trial F10, finding 1:
// 21 of 23 portraits), and at 0.5 the neighbourhood (lower beside a head than beside a broad
// figure) crossed the threshold within a few px of the outline: a narrow strip hugging the
// silhouette (trial F10's judges, round 1)
const float WIDE = 1.3;
// How far round a head the wash lies on every side (in its box's half sides from the box's
// centre, the box spanning brows to chin; above the centre UPPER times as far: the hair):
// all round .. none, fading slowly down past the chin so the narrow side tapers into the
// figure's outline (a chin line's quick stop left a tab of wash beside the jaw)
const vec2 HEAD_WASH = vec2(1.6, 3.0);
const float UPPER = 1.3;
float head_wash(vec2 at) {
    float k = 0.0;
    for (int i = 0; i < HEADS; i++) {
        vec4 h = u_heads[i];
        if (h.z <= 0.0) {
            break;
        }
        vec2 d = (at - h.xy) / h.zw;
        d.y /= d.y < 0.0 ? UPPER : 1.0;
        k = max(k, 1.0 - smoothstep(HEAD_WASH.x, HEAD_WASH.y, length(d)));
    }
    return k;
}

// px to the frame's borders as they lay on the paper sheet at the shot's start (`sheet`: p's
// point on it), within BORDER_HOLD of where they are now: a camera panning or zooming a
// little carries the wash's outline with the figure, instead of sliding the fades under the
// sheet's noise (the outline re-drawn each frame, trial F3); a long pan lets them follow the
// frame
vec2 held_borders(vec2 p, vec2 sheet, float short_side) {
    vec2 d = to_borders(p);
    return clamp(to_borders(sheet), d - BORDER_HOLD * short_side, d + BORDER_HOLD * short_side);
}

// How far the wash round the figure spreads at `p` (source px of the whole picture), the
// figure's neighbourhood aside: the frame's borders fading it, lopsided or behind the face's
// lit side. `short_side`, `k`: as in main.
float spread(vec2 p, float short_side, float k) {
    vec2 sheet = canvas_point(u_canvas, p);
    vec2 d = held_borders(p, sheet, short_side);
    float edge = smoothstep(0.0, BORDER, min(d.x, d.y) / short_side);
    // lopsided, as painted: the wash round the figure reaches further on one side than on
    // another, and its edge is found in places and lost in others
    float side = value_noise(sheet / (0.6 * short_side), u_seed, 502);
    // counterchange: with the face lit from one side, the wash lies broad behind its lit
    // side (a darker ground against the light) and the shadow side meets the paper (round
    // a head it lies broad on every side: head_wash)
    float lit = clamp(0.5 + sign(u_light.x) * (p.x - u_light.y) / (LIT_SPAN * short_side),
                      0.0, 1.0);
    side = mix(side, lit, k);
    float narrow = mix(mix(0.15, -0.3, k), WIDE, head_wash(p));
    return edge * mix(narrow, WIDE, side);
}

void main() {
    // at full strength while a face found or lost fades in or out: the composite
    // cross-fades (weakened, the edge would scatter islands over the paper)
    float strength = u_background == 2 ? max(u_vignette, 0.8) : u_vignette;
    if (u_subject == 0 || strength <= 0.0) {
        frag = vec4(1.0);
        return;
    }
    vec2 uv = gl_FragCoord.xy / u_resolution;
    vec2 p = gl_FragCoord.xy / u_target_scale + u_origin;  // source px of the whole picture
    float short_side = content_short_side();
    vec2 sheet = canvas_point(u_canvas, p);
    vec2 d = held_borders(p, sheet, short_side);
    vec3 fig = texture(figure, uv).xyz;
    float k = smoothstep(LIT.x, LIT.y, abs(u_light.x));
    float spread_here = spread(p, short_side, k);
    float around = u_background == 2 ? 0.0 : fig.y * spread_here;
    float n = fbm(sheet / (0.1 * short_side), 3, u_seed, 501) - 0.5;
    float ragged = RAGGED;
    if (u_background != 2) {
        // the wash's slope, per source px: the neighbourhood's across this target's texels
        // (smooth), the spread's across a texel each way (the borders' fade and the
        // counterchange bend on lines: a 2x2 block's derivative there was anyone's guess)
        vec2 near = vec2(dFdx(fig.y), dFdy(fig.y)) * u_target_scale;
        float h = 1.0 / u_target_scale;
        vec2 spreads = vec2(spread(p + vec2(h, 0.0), short_side, k)
                            - spread(p - vec2(h, 0.0), short_side, k),
                            spread(p + vec2(0.0, h), short_side, k)
                            - spread(p - vec2(0.0, h), short_side, k)) / (2.0 * h);
        float fall = length(spread_here * near + fig.y * spreads);
        ragged = min(RAGGED, fall * 0.1 * short_side / WASH_SLOPE);
    }
    float thr = mix(-0.4, 0.8, strength);
    float lost = SOFT * mix(1.0, 5.0, smoothstep(0.55, 0.8,
                                                 value_noise(sheet / (0.25 * short_side),
                                                             u_seed, 503)));
    // the figure fades out at the frame's borders along a line wandering slowly (a lost
    // edge), and the noise only makes its outline ragged: reaching inside the mass it punched
    // holes of bare paper into hair and chest at fixed places of the sheet (trial F2). Where
    // the frame cuts the body (neck, shoulders) the painting stops in dry flicks along it,
    // thinning before it (a painter lets them fade down into the paper; a straight cut
    // across the neck read as a sticker, trial F3): noise stretched along the body
    float wander = BORDER_WANDER * (value_noise(sheet / (0.3 * short_side), u_seed, 504) - 0.5);
    // px to the frame's bottom (held on the sheet: d), none in the picture's top half
    vec4 content = content_rect();
    float below = 2.0 * p.y > content.y + content.w ? d.y : short_side;
    // a face the frame cuts (a close webcam face, a chin or crown at the border) is painted
    // to the border: the fade and the flicks tore through mouths, chins and foreheads
    // (trial F4, finding 1); a painter stops the figure below the face, never across it
    float face = smoothstep(FACE_HELD.x, FACE_HELD.y, fig.z);
    float at_bottom = (1.0 - smoothstep(0.0, BORDER, below / short_side)) * (1.0 - face);
    float flick = value_noise(sheet / (FLICK_CELL * short_side), u_seed, 505);  // streaks
    wander += FLICKS * at_bottom * (flick - 0.5);
    float fade = max(smoothstep(0.0, BORDER, min(d.x, d.y) / short_side + wander), face);
    float figure = fig.x * (0.5 + 0.5 * fade);
    float outline = 1.0 - smoothstep(0.5, 0.95, fig.x);
    float by_figure = figure + RAGGED * outline * n;
    float by_wash = around + ragged * n;
    // the figure's edge here (not out on the paper, where both are the noise)
    float on_figure = smoothstep(-0.1, 0.1, by_figure - by_wash) * smoothstep(0.0, 0.2, fig.x);
    float s = (max(by_figure, by_wash) - thr) / lost;
    float field = max(figure, around);
    // the grade follows the figure's neighbourhood calmly: only the edge is ragged. The
    // figure keeps its density to its outline (thinned there it left a pale halo round the
    // hair) but thins towards where a border cuts it
    float grade = smoothstep(thr, thr + GRADE, field + 0.3 * RAGGED * n);
    float body = mix(1.0, smoothstep(thr, thr + BODY_GRADE, by_figure), at_bottom);
    frag = vec4(clamp(0.5 + 0.25 * s, 0.0, 1.0), mix(grade, body, on_figure),
                u_background == 2 ? 1.0 : max(fig.y, fig.x), 1.0);
}
