// A small face's features judged against its own skin, and never a lone dot (accents.glsl's
// tiny_feature: faces of 60-180 work px). The photo's wide blur (the composite's `coarse`, a
// 14 px sigma of a 720-line frame) takes in the hair and the room round such a face: on a
// dark-haired head before a dark wall it was as dark as the eyes (the red-suit man of the
// child group: eye 31-36, the blur there 30-36, the cheeks 41-49 L*), so the eyes were not
// stated and the washes left them pale lilac smears, lighter than the skin. And the darkest
// few pixels of a feature (a smiling mouth's corners, an eye's outer corner) were laid as deep
// as the photo's own pixel while the line between them was not: black pin-pricks with a pale
// mouth line between them, like stitches (portrait trial F3, finding 6). Needs color.glsl.

// The skin round a feature: on a ring of TINY_RING of the face's size (at most TINY_RING_REACH
// reference px) the TINY_RING_RANK-th lightest of 8 taps, each the mean of 4 texels (a
// webcam's noise); the brow, the hair, the eye itself take fewer of the taps, a shine on the
// forehead one or two.
const float TINY_RING = 0.14;
const float TINY_RING_REACH = 8.0;
const int TINY_RING_RANK = 3;
// A dark is part of a stroke when its neighbours TINY_SIDE of the face's size to the left or
// right (the features lie across the face) are dark too: a dark here is laid no deeper under
// the skin than TINY_TAPER times the shallower of itself and its darker side, plus
// TINY_TAPER_L L*. A mouth's corner, an eye's outer corner, stays a little darker than the line
// it ends (a painter's stroke, darkest at its ends and middle), a lone dot fades into the skin.
const float TINY_SIDE = 0.07;
const float TINY_TAPER = 1.25;
const float TINY_TAPER_L = 2.0;

// The photo's L* near `px` (texels) as the mean of the 4 texels round a texel corner (a 2x2
// box: a webcam's noise halved).
float corner_l(sampler2D photo, vec2 px, vec2 texel) {
    return srgb_to_lab(texture(photo, (floor(px + 0.5)) * texel).rgb).x;
}

// The skin's L* round `uv` on a ring of radius `r` texels (see TINY_RING).
float tiny_skin(sampler2D photo, vec2 uv, float r) {
    vec2 size = vec2(textureSize(photo, 0));
    vec2 px = uv * size;
    float top[TINY_RING_RANK];
    for (int j = 0; j < TINY_RING_RANK; j++) {
        top[j] = 0.0;
    }
    for (int i = 0; i < 8; i++) {
        float a = 0.7853982 * float(i) + 0.3926991;
        float l = corner_l(photo, px + r * vec2(cos(a), sin(a)), 1.0 / size);
        // insert into the descending list of the lightest
        for (int j = 0; j < TINY_RING_RANK; j++) {
            float hi = max(top[j], l);
            l = min(top[j], l);
            top[j] = hi;
        }
    }
    return top[TINY_RING_RANK - 1];
}

// The photo's L* blurred over an ellipse of radii `r` texels round `uv` (7 taps).
float tiny_blur_l(sampler2D photo, vec2 uv, vec2 r) {
    vec2 t = r / vec2(textureSize(photo, 0));
    vec3 s = texture(photo, uv).rgb;
    for (int i = 0; i < 6; i++) {
        float a = 1.0471976 * float(i);
        s += texture(photo, uv + 0.6 * t * vec2(cos(a), sin(a))).rgb;
    }
    return srgb_to_lab(s / 7.0).x;
}

// How deep under the skin `skin` a dark at `uv` may be laid (L*): the photo blurred over `r`
// texels here and `side` texels to either side (see TINY_SIDE).
float tiny_stroke_depth(sampler2D photo, vec2 uv, vec2 r, float side, float skin) {
    vec2 t = vec2(side / float(textureSize(photo, 0).x), 0.0);
    float here = skin - tiny_blur_l(photo, uv, r);
    float sides = skin - min(tiny_blur_l(photo, uv - t, r), tiny_blur_l(photo, uv + t, r));
    return TINY_TAPER * max(min(here, sides), 0.0) + TINY_TAPER_L;
}

// A feature's line on a small face (a lip line, a lid, a nostril's rim, 1-3 px across) is
// judged along itself: the direction at `uv` in which the photo's luma curves least (its
// Hessian on taps `h` texels apart: along a dark line, not across it), and the photo's L*
// blurred over a band along it. Judged on round blurs, a line's darkness spread as thin as a
// dot's, so the stated darks' test (part of a shape, not a lone dot) sat on its threshold the
// whole line long, and a webcam's or a small crop's noise flipped it pixel by pixel: the lip
// line and the nostrils laid as strings of dark beads, like stitching (portrait trial F6).
vec2 tiny_line_dir(sampler2D photo, vec2 uv, float h) {
    vec2 t = h / vec2(textureSize(photo, 0));
    float c = 2.0 * luma(texture(photo, uv).rgb);
    float xx = luma(texture(photo, uv + vec2(t.x, 0.0)).rgb)
               + luma(texture(photo, uv - vec2(t.x, 0.0)).rgb) - c;
    float yy = luma(texture(photo, uv + vec2(0.0, t.y)).rgb)
               + luma(texture(photo, uv - vec2(0.0, t.y)).rgb) - c;
    float xy = 0.25 * (luma(texture(photo, uv + t).rgb) + luma(texture(photo, uv - t).rgb)
                       - luma(texture(photo, uv + vec2(t.x, -t.y)).rgb)
                       - luma(texture(photo, uv - vec2(t.x, -t.y)).rgb));
    float a = 0.5 * atan(2.0 * xy, xx - yy);  // across: the most curved
    return vec2(-sin(a), cos(a));
}

// The photo's L* blurred over a band `len` texels either way along `dir` and `wide` across
// (7 taps along, on 1 or 3 rows).
float tiny_band_l(sampler2D photo, vec2 uv, vec2 dir, float len, float wide) {
    vec2 t = 1.0 / vec2(textureSize(photo, 0));
    vec2 along = dir * len * t;
    vec2 across = vec2(-dir.y, dir.x) * wide * t;
    int rows = wide > 0.0 ? 1 : 0;
    vec3 s = vec3(0.0);
    float n = 0.0;
    for (int j = -rows; j <= rows; j++) {
        vec2 o = uv + float(j) * across;
        s += texture(photo, o).rgb;
        for (int i = 1; i <= 3; i++) {
            float f = float(i) / 3.0;
            s += texture(photo, o + f * along).rgb + texture(photo, o - f * along).rgb;
        }
        n += 7.0;
    }
    return srgb_to_lab(s / n).x;
}

// How much `uv` lies on a line (0..1) rather than a blob: the photo's L* along `dir` (`along`,
// tiny_band_l's over `r`) under its L* across, of its depth under the skin `skin`. A line
// (1-3 px across a shape's `r` texels) is as dark along itself as its core and light across
// it; a pupil, a round nostril is as dark across as along (and its direction, the curve's
// least, is the noise's). Judged along a line, a pupil's darkest took its rim's paler value:
// a pale hollow in it (portrait trial G15, round 2).
const vec2 TINY_LINE = vec2(0.15, 0.35);
float tiny_line(sampler2D photo, vec2 uv, vec2 dir, float r, float along, float skin) {
    float across = tiny_band_l(photo, uv, vec2(-dir.y, dir.x), r, 0.0);
    return smoothstep(TINY_LINE.x, TINY_LINE.y, (across - along) / max(skin - along, 1.0));
}
