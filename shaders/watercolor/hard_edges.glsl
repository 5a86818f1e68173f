// Hard, dried edges (issue 29): a wash that dried on its own stops at a sharp border. The
// washes are painted at half the work size and smoothed, so each border reaches the output as
// a ramp several pixels wide; at the output's size each side of a border is sampled
// EDGE_REACH reference px away across it (the washes' gradient), the pixel's position between
// the two (t, 0..1) is steepened to a transition EDGE_WIDTH reference px wide (at least one
// output px), and whatever of the colour is not on the line between the sides is kept.
// Graded washes (a small step over the reach) and flat ones keep their soft gradation; the
// caller weighs `hard` (wet washes and a face's glazes stay soft but where they face the
// light: face_border_lit); on a face's skin and round its features a border is steepened
// only where the photo itself breaks (face_break). Needs color.glsl.
// Reach: ceil((EDGE_REACH * u_px + 2.0) / u_scale) + 1 output px.

uniform vec2 u_light;  // .x the main face's light: -1 from the left .. 1 from the right
// how sharp the main face is drawn in the photo, 0 soft .. 1 (engine/face_sharpness.py): a
// soft face's dried edges are its only drawing, so face_break applies to sharp ones
uniform float u_face_sharp;

const float EDGE_REACH = 3.0;  // reference px either side: a ramp up to 6 px becomes a step
const float EDGE_WIDTH = 1.2;  // reference px

float across(vec3 c, vec3 a, vec3 ab) {
    return clamp(dot(c - a, ab) / dot(ab, ab), 0.0, 1.0);
}

// The washes' luma gradient at uv (`here` = texture(washes, uv)): forward differences over
// one texel of the washes (two taps; the direction is all that matters, half a texel off is
// nothing at a border 6 reference px wide). Also tells the blooms where a wash is flat.
vec2 wash_gradient(sampler2D washes, vec2 uv, vec3 here) {
    vec2 tx = 1.0 / vec2(textureSize(washes, 0));
    float l = luma(here);
    return vec2(luma(texture(washes, uv + vec2(tx.x, 0.0)).rgb) - l,
                luma(texture(washes, uv + vec2(0.0, tx.y)).rgb) - l);
}

// How much a border on a face (the washes' luma gradient `g`, lighter along it) faces the
// light, 0..1: a shadow glaze's dried edge (the top of the shadow under the jaw or in an eye
// socket, the shadow side's turn); its other borders stay soft (glaze.glsl's glaze_width).
const vec2 LIT_BORDER = vec2(0.1, 0.5);  // the cosine between the border's normal and the light
float face_border_lit(vec2 g) {
    vec2 light = normalize(vec2(clamp(u_light.x, -1.0, 1.0), -1.0));  // y down the picture
    return smoothstep(LIT_BORDER.x, LIT_BORDER.y, dot(g / max(length(g), 1e-6), light));
}

// How much a border of the washes on a face's skin is the photo's own break, 0..1 (trial F4,
// finding 5): the photo's luma step over the middle third of the span, against the washes'
// step `step` over all of it (the mean of three such steps along the border, against the
// skin's pores). A form that breaks (the jaw, a smile's fold, the nose's shadow side) steps
// within that third about as far as the washes do over the span; a cheek turning into shadow
// or a lit forehead, a slow ramp, by a third of it, and a wash's tone step where the photo is
// smooth by nothing: those stay graded. Steepened everywhere, a large face's slow ramps dried
// into flat terraces with hard contours, and its shines into cut-out dots. `n`: one output px
// across the border, in uv; `d`: EDGE_REACH in output px (the taps lie within 0.7 d).
const float BREAK_SPAN = 1.0 / 3.0;       // of the span: the photo's step taken over
const float BREAK_ALONG = 0.6;            // of the span: the taps along the border
const vec2 FACE_BREAK = vec2(0.6, 1.0);   // its step over the washes': graded .. hard
float face_break(sampler2D photo, vec2 uv, vec2 n, float d, float step) {
    vec2 across_n = BREAK_SPAN * d * n;
    vec2 along = BREAK_ALONG * d * vec2(-n.y, n.x);
    float diff = 0.0;
    for (int i = -1; i <= 1; i++) {
        vec2 at = uv + float(i) * along;
        diff += luma(texture(photo, at + across_n).rgb) - luma(texture(photo, at - across_n).rgb);
    }
    return smoothstep(FACE_BREAK.x, FACE_BREAK.y, abs(diff) / 3.0 / max(step, 0.02));
}

// `here` = texture(washes, uv), `g` its wash_gradient; size: the output's size (px); ref:
// output px per reference px; `skin`: how much this is a face's skin (its borders hard only
// where the `photo`, at the washes' uv, breaks: face_break).
vec3 hard_edged(sampler2D washes, vec2 uv, vec3 here, vec2 g, vec2 size, float ref,
                float hard, sampler2D photo, float skin) {
    // a border, not a flat wash's rounding noise: its direction must be well defined
    hard *= smoothstep(0.003, 0.009, length(g));
    if (hard <= 0.0) {
        return here;
    }
    vec2 n = normalize(g) / size;  // one output px across the border, in uv
    vec3 a = texture(washes, uv - EDGE_REACH * ref * n).rgb;
    vec3 ab = texture(washes, uv + EDGE_REACH * ref * n).rgb - a;
    hard *= smoothstep(0.05, 0.12, length(ab));
    if (hard > 0.0 && skin > 0.0) {
        hard *= mix(1.0, face_break(photo, uv, n, EDGE_REACH * ref, abs(luma(ab))), skin);
    }
    if (hard <= 0.0) {
        return here;
    }
    float t = across(here, a, ab);
    // how fast t rises here, per output px (the ramp's own width): the luma gradient over
    // the luma step
    float texel = size.x / float(textureSize(washes, 0).x);  // output px per washes texel
    float rate = length(g) / (texel * max(abs(luma(ab)), 0.02));
    // on the ramp of one border, not on a plateau between two (a tone laid between them:
    // there t barely moves, and a step would split the plateau where t happens to be 0.5)
    hard *= smoothstep(0.3, 0.7, rate * 2.0 * EDGE_REACH * ref);
    float w = min(0.5, 0.5 * max(1.0, EDGE_WIDTH * ref) * rate);
    return here + hard * (smoothstep(0.5 - w, 0.5 + w, t) - t) * ab;
}
