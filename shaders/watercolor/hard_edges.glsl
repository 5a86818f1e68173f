// Hard, dried edges (issue 29): a wash that dried on its own stops at a sharp border. The
// washes are painted at half the work size and smoothed, so each border reaches the output as
// a ramp several pixels wide; at the output's size each side of a border is sampled
// EDGE_REACH reference px away across it (the washes' gradient), the pixel's position between
// the two (t, 0..1) is steepened to a transition EDGE_WIDTH reference px wide (at least one
// output px), and whatever of the colour is not on the line between the sides is kept.
// Graded washes (a small step over the reach) and flat ones keep their soft gradation; the
// caller weighs `hard` (wet washes and a face's glazes stay soft but where they face the
// light: face_border_lit). Needs color.glsl.
// Reach: ceil((EDGE_REACH * u_px + 2.0) / u_scale) + 1 output px.

uniform vec2 u_light;  // .x the main face's light: -1 from the left .. 1 from the right

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

// `here` = texture(washes, uv), `g` its wash_gradient; size: the output's size (px); ref:
// output px per reference px.
vec3 hard_edged(sampler2D washes, vec2 uv, vec3 here, vec2 g, vec2 size, float ref,
                float hard) {
    // a border, not a flat wash's rounding noise: its direction must be well defined
    hard *= smoothstep(0.003, 0.009, length(g));
    if (hard <= 0.0) {
        return here;
    }
    vec2 n = normalize(g) / size;  // one output px across the border, in uv
    vec3 a = texture(washes, uv - EDGE_REACH * ref * n).rgb;
    vec3 ab = texture(washes, uv + EDGE_REACH * ref * n).rgb - a;
    hard *= smoothstep(0.05, 0.12, length(ab));
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
