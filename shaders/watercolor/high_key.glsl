// A high-key figure's lines (trial F9, finding 8): a pale face and hands on white are drawn
// in the photo by thin darks a few L* deep at L* 80-95 (the gap between two fingers, the
// shadow side of a finger, of the jaw over the neck); the washes, laid at half the work size,
// keep a third to a half of such a line, the dilution lifts the rest towards the paper, and
// fingers, chin and neck merged into one edge-less pale wash. A painter states them with a
// light, warm line on the shadow side, in the wash's own colour: here, on a pale person's
// skin, the part of the photo's thin dark (its depth under the lit skin beside it, as a
// share of that skin's luma) the washes lost is laid back as a denser layer of the wash's
// colour. The skin's own tone, the lit sides and the rest of the picture are kept: only the
// lines deepen. Needs color.glsl.

#include "watercolor/own_skin.glsl"

// the face's own skin L*: a face of ordinary key .. a pale, high-key one (trial photos: pale
// faces 85-90, ordinary 45-80)
const vec2 HIGH_KEY = vec2(78.0, 84.0);
// L* of the lit skin beside a line: a mid-tone's lines are the washes' own
const vec2 HIGH_KEY_LIT = vec2(72.0, 80.0);
// a line's depth under the lit skin beside it (of its luma): the skin's grain .. a line
const vec2 LINE_DEPTH = vec2(0.03, 0.08);
// reference px: the ring the lit skin is looked for on (at least LINE_RING_MIN output px):
// a finger's gap or a contour's shadow side a pixel or two wide
const float LINE_RING = 1.5;
const float LINE_RING_MIN = 1.5;
// of the lost depth laid back: a light line, a little under the photo's (at its whole depth
// the 1 px lines read as a pen's)
const float LINE_GAIN = 0.8;

// The luma of `img` round `uv` at radius `r` (uv units per axis): its lightest (.x) of 8
// taps on the ring, and the colour there (.yzw).
vec4 lit_ring(sampler2D img, vec2 uv, vec2 r) {
    vec4 best = vec4(-1.0);
    for (int i = 0; i < 8; i++) {
        float a = 0.7853982 * float(i);
        vec3 s = texture(img, uv + r * vec2(cos(a), sin(a))).rgb;
        float l = luma(s);
        if (l > best.x) {
            best = vec4(l, s);
        }
    }
    return best;
}

// How much of a high-key figure this is, 0..1, from the main face's skin (u_face_skin).
float high_key_face() {
    return u_face_skin.w * smoothstep(HIGH_KEY.x, HIGH_KEY.y, u_face_skin.x);
}

// The painting `c` with the photo's thin darks on a high-key person's skin laid back where
// the washes lost them: `photo` at `uv_photo`, the washes at `uv_wash` (`here`: their colour
// there), `skin`: how much this is the person's skin (not a feature's: those keep their
// accents), `ref`: output px per reference px, `size`: the output's size (px).
vec3 high_key_lines(vec3 c, sampler2D photo, vec2 uv_photo, sampler2D washes, vec2 uv_wash,
                    vec3 here, float skin, float ref, vec2 size) {
    float k = skin * high_key_face();
    if (k <= 0.0) {
        return c;
    }
    vec2 r = max(LINE_RING * ref, LINE_RING_MIN) / size;
    float own = luma(texture(photo, uv_photo).rgb);
    vec4 lit = lit_ring(photo, uv_photo, r);
    k *= smoothstep(HIGH_KEY_LIT.x, HIGH_KEY_LIT.y, srgb_to_lab(lit.yzw).x);
    float depth = 1.0 - own / max(lit.x, 1e-3);
    k *= smoothstep(LINE_DEPTH.x, LINE_DEPTH.y, depth);
    if (k <= 0.0) {
        return c;
    }
    // what the washes kept of it, over the same ring
    float kept = 1.0 - luma(here) / max(lit_ring(washes, uv_wash, r).x, 1e-3);
    float lost = max(depth - max(kept, 0.0), 0.0);
    return c * (1.0 - LINE_GAIN * k * lost);
}
