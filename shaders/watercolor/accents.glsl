// The features' drawing (eyes, brows, nostrils, mouth: the subject map's .y): where the photo
// is darker than the wash laid over it, a crisp accent in a denser layer of the wash's own
// pigment (a coloured dark, not ink); where a light shape of it is lighter (catchlights, the
// whites of the eyes, the shine on lips), the paper kept as far as the photo is light. The
// washes are painted at half size; the accents at the picture's own, so the eyes keep their
// drawing. On a painting lighter than the photo (a pale sketch, a high key) the darks keep
// the photo's contrast against the skin round them (`lift`: feature_lift.glsl), never more.
// Needs pigment.glsl and color.glsl.
#include "watercolor/tiny_face.glsl"
uniform float u_features;

// `face`: the faces' median size in reference px (0: none). A small face (a group, a webcam
// at a distance) has features of a few pixels, which the washes and their half size blur
// away: its accents are laid stronger.
const vec2 SMALL_FACE = vec2(90.0, 220.0);  // reference px: small .. large enough
const float SMALL_FEATURES = 1.8;  // the accents' gain on a small face
// The paper is kept only in a light shape at least this wide (of the face's size, at least a
// pixel either way): a lone glint on a spectacle frame or at a mouth's corner, a pore's
// sheen, is no catchlight, and kept it read as a white fleck.
const float LIGHT_SHAPE = 0.012;
const float LIGHT_REACH = 3.0;  // reference px: at most (within the composite's tile reach)

// `n`, as a count the compiler cannot fold into a constant (u_features is never negative):
// a loop over it is not unrolled. Unrolled, the openings' 8 rings of 8 taps (light_shape)
// doubled the watercolor's shader compile on llvmpipe (5.5 -> 12 s at its first paint).
int unfolded(int n) {
    return n + int(min(u_features, 0.0));
}

// The photo's darkest luma on a ring of radius `r` texels round `uv` (8 taps): a light shape
// narrower than the ring is not light there.
float ring_luma(sampler2D photo, vec2 uv, float r) {
    vec2 t = r / vec2(textureSize(photo, 0));
    float m = 1.0;
    for (int i = 0; i < 8; i++) {
        float a = 0.7853982 * float(i);
        m = min(m, luma(texture(photo, uv + t * vec2(cos(a), sin(a))).rgb));
    }
    return m;
}

// On a small face, or a grey one (a black-and-white photo, a dim webcam), the features
// dissolve into the pale wash: a painter states them as a few soft, slightly merged coloured
// darks (the eye's dark as one shape, the brow, the mouth line, the nostrils' shadows), not
// the photo's every line. Their shapes are the photo blurred at a fraction of the face,
// softly thresholded against the face round them (`coarse`: the wide blur), so a crease,
// a lash or a tooth's gap (thin) does not reach the threshold; a face over STATED_FACE
// reference px in colour is painted as before.
const vec2 STATED_FACE = vec2(160.0, 210.0);  // reference px: stated .. as before
const vec2 STATED_GREY = vec2(4.0, 8.0);  // C* of the face round it: grey .. in colour
const float STATED_SMALL = 0.5;  // how much a small face in colour is stated (its darks are coloured)
const float STATED_BLUR = 0.035;  // of the face: the radius the features' shapes are taken at
const float STATED_REACH = 5.0;  // reference px: at most (the composite's tile reach)
// L* under the face round it: none .. stated, on a face in colour and on a grey one (fainter)
const vec4 STATED_CONTRAST = vec4(10.0, 24.0, 3.0, 10.0);
const float STATED_STRETCH = 0.35;  // a stated dark is this much darker again than its contrast
const vec2 STATED_L = vec2(24.0, 62.0);  // L*: never black .. at least this dark
// the wash's own colour plus burnt sienna with ultramarine: a warm dark (a*, b*), the chroma
// at most STATED_CHROMA.x in colour; on a grey face (a black-and-white photo, a grey webcam)
// a sepia grey instead, a little of the wash's colour in it, at most STATED_CHROMA.y: a rust
// dark on a grey picture reads as pasted on
const vec2 WARM_DARK = vec2(4.0, 4.5);
const vec2 SEPIA_DARK = vec2(1.0, 3.0);
const vec2 STATED_CHROMA = vec2(20.0, 4.0);
// Only a dark that is part of a shape of some size is stated (an eye, a brow, the mouth's
// line), never a lone dot (a nostril's pinprick, a mouth's corner on its own): the photo
// blurred again over an ellipse STATED_JOIN times the shape's radius, wider than high (the
// features lie across the face), must be at least STATED_KEEP of the shape's contrast darker
// than the face round it; a dot's darkness spreads thin there, a line's or an eye's does not.
const vec2 STATED_JOIN = vec2(2.6, 1.3);
const float STATED_JOIN_REACH = 8.0;  // reference px: the ellipse's half width at most
const vec2 STATED_KEEP = vec2(0.3, 0.5);
// of the features' map: a stated dark lies within an eye, a brow, a nostril, the mouth (not on
// the hair's edge over a brow, not on a cheek beside the nose), fading out with the map over
// most of its falloff: cut at 0.45 of it, a brow's top was cut flat and an eye's socket
// shadow stopped at a hard rim across temple and cheek.
const vec2 STATED_FEATURE = vec2(0.1, 0.8);
const float STATED_OPACITY = 0.8;
const vec2 STATED_LIGHT = vec2(8.0, 20.0);  // L* over the shape: a light within it, kept
const float STATED_CRISP = 0.4;  // of a stated dark's lightness from the photo's own (not blurred)

// A face of few work pixels (a webcam's at 640x480, a call's at 1280x720: 60-160 px) has
// eyes 3-6 px high, a brow 3-6 px above them: a painter makes each eye one crisp coloured
// dark (upper lid and iris together), the brow one stroke with skin left between, never a
// lone dot. Blurred round (STATED_BLUR), eye and brow fused into one soft grey-brown lozenge,
// the half-size washes filled the skin between them, and a webcam's noise made the
// openings' pixel darks into pinpricks (portrait trial F3, findings 1 and 6). So on such a
// face (tiny_feature, instead of stated_dark) the shapes are taken on an ellipse flattened
// across the face; a shape's core (darker than the shape round it: the lid and iris, not
// the socket's shadow) is laid as deep as the photo's own dark, and at least TINY_STEP under
// the skin where the photo's is fainter (a dim, noisy webcam's), in the photo's colour; the
// light between two darks is given back; the openings' pixel darks are left out. A face over
// TINY_PX.y is painted as before, to the byte.
const vec2 TINY_PX = vec2(135.0, 180.0);  // work px: tiny .. as before
const float TINY_HIGH = 0.4;  // the shapes' blur: its height of its width
const vec2 TINY_CONTRAST = vec2(5.0, 9.0);  // L* under the face round it: none .. stated
// L* under the shape round it (the stated darks' wider blur): its core, the eye's lid and
// iris, not the socket's shadow round them
const vec2 TINY_CORE = vec2(1.0, 5.0);
const float TINY_SKIN = 1.5;  // of the photo's light between a feature's darks: given back
const float TINY_GAIN = 1.8;  // a feature's darkness under the skin, multiplied
const float TINY_FLOOR = 20.0;  // L*: never darker (never black)
const float TINY_DEEPENED = 4.0;  // L* the composite's pigment darks deepen such a dark
const float TINY_STEP = 20.0;  // L* under the skin: a feature's core at least so dark
const float TINY_PHOTO_HUE = 0.6;  // of the dark's a*b*: the photo's (else the wash's)
const float TINY_HOLD = 0.5;  // of a feature's darkness under the skin: at least so dark
const float TINY_LOCAL = 0.8;  // of the photo's chroma a lip line's dark keeps ...
const float TINY_CHROMA = 30.0;  // ... at most
const float TINY_CURVE = 0.4;  // of the shapes' blur: the taps a line's direction is found on
// of a pixel's depth under the skin: where it lies so far under the line's L* along it, a dot
// on the line (a mouth's corner), not the line
const vec2 TINY_DOT = vec2(0.4, 0.7);

// How much a face of `face_px` work px is tiny (0..1; 0 without a face).
float tiny_share(float face_px) {
    return face_px > 0.0 ? 1.0 - smoothstep(TINY_PX.x, TINY_PX.y, face_px) : 0.0;
}

// The chroma a tiny face's dark may keep where the photo's (`blab`, blurred) is `TINY_LOCAL`
// times more (a lip line among red lips: the lips' own deep crimson-brown, at most
// TINY_CHROMA): held at the stated darks' bound there, a lip line laid grey-brown against
// pink lips read as grey-green stitching (portrait trial F6). Skin, a brow, an eye: as before.
float tiny_chroma(vec3 blab) {
    return clamp(TINY_LOCAL * length(blab.yz), STATED_CHROMA.x, TINY_CHROMA);
}

// `c` on a tiny face, by `w`: `b` the photo blurred across the face (sRGB), `lj` its L*
// blurred wider (the shape round it), `lp` its own L* (or the line's along it where darker:
// tiny_band_l, not its pixels' noise), `skin` the L* of the skin round it
// (tiny_skin), `depth` how deep under it a dark here may be laid (tiny_stroke_depth: no lone
// dot), `lift` the L* the look adds to that skin, `keep` the stated darks' test (part of a
// shape). Lighter where the photo is lighter than the shape round it (the skin between an eye
// and its brow), a shape's core laid crisp and dark in the photo's colour; (.a) how much.
vec4 tiny_feature(vec3 c, vec3 b, float lj, float lp, float skin, float depth, float lift,
                  float keep, float w, out float shape) {
    vec3 lab = srgb_to_lab(c);
    vec3 blab = srgb_to_lab(b);
    float d = min(skin - blab.x, depth);
    // never darker than the photo's own (its pixel's, or the shape's if darker; the pigment
    // darks deepen it again: TINY_DEEPENED) or than TINY_STEP under the skin: the blur
    // lightens a lid's thin dark, the gain gives it back, and a faint one (a dim, noisy
    // webcam's) is laid a painter's value step darker than the skin, not the photo's grey
    float lt = max(skin - TINY_GAIN * max(d, 0.0),
                   max(min(min(lp, blab.x) + TINY_DEEPENED, skin - min(TINY_STEP, depth)),
                       TINY_FLOOR)) + lift;
    float s = w * keep * smoothstep(TINY_CONTRAST.x, TINY_CONTRAST.y, d)
              * smoothstep(TINY_CORE.x, TINY_CORE.y, lj - blab.x);
    // lighter than the shape round it (the skin between an eye and its brow): as much
    // lighter than the wash, which the half size smeared there
    lab.x += (w - s) * TINY_SKIN * max(blab.x - lj, 0.0);
    // a feature darker than the skin (an eye, a brow, the mouth's line) is never laid lighter
    // than it: the washes laid a small eye as a pale lilac smear
    shape = w * smoothstep(TINY_CONTRAST.x, TINY_CONTRAST.y, d);
    lab.x = mix(lab.x, min(lab.x, skin + lift - TINY_HOLD * d), shape);
    if (lt >= lab.x) {
        return vec4(clamp(lab_to_srgb(lab), 0.0, 1.0), 0.0);
    }
    vec2 ab = mix(lab.yz, blab.yz, TINY_PHOTO_HUE) + WARM_DARK;
    ab *= min(1.0, tiny_chroma(blab) / max(length(ab), 1e-3));
    lab = mix(lab, vec3(lt, ab), s);
    return vec4(clamp(lab_to_srgb(lab), 0.0, 1.0), s);
}

// How much a face's features are stated (.x, 0..1): small, or grey round here (.y, from
// `coarse_lab`).
vec2 stated_share(float face, vec3 coarse_lab) {
    if (face <= 0.0) {
        return vec2(0.0);
    }
    float small = 1.0 - smoothstep(STATED_FACE.x, STATED_FACE.y, face);
    float grey = 1.0 - smoothstep(STATED_GREY.x, STATED_GREY.y, length(coarse_lab.yz));
    return vec2(max(STATED_SMALL * small, grey), grey);
}

// A stated dark's chroma held at its bound (`stated`: feature_accents' `stated_here`) once the
// composite's later terms have deepened it: the pigment darks lend a near-neutral warm dark a
// burnt umber's hue, a rust on a grey picture.
vec3 stated_chroma(vec3 c, vec2 stated) {
    if (stated.x <= 0.0) {
        return c;
    }
    vec3 lab = srgb_to_lab(c);
    float cap = mix(STATED_CHROMA.x, STATED_CHROMA.y, stated.y);
    lab.yz *= mix(1.0, min(1.0, cap / max(length(lab.yz), 1e-3)), stated.x);
    return clamp(lab_to_srgb(lab), 0.0, 1.0);
}

// The photo blurred over an ellipse of radii `r` texels round `uv` (19 taps on 3 rings).
vec3 disc_blur(sampler2D photo, vec2 uv, vec2 r) {
    vec2 t = r / vec2(textureSize(photo, 0));
    vec3 s = texture(photo, uv).rgb;
    float w = 1.0;
    for (int i = 0; i < 6; i++) {
        float a = 1.0471976 * float(i);
        vec2 d0 = vec2(cos(a), sin(a)), d1 = vec2(cos(a + 0.5235988), sin(a + 0.5235988));
        s += 0.85 * texture(photo, uv + 0.34 * t * d1).rgb;
        s += 0.6 * texture(photo, uv + 0.67 * t * d0).rgb;
        s += 0.3 * texture(photo, uv + t * d1).rgb;
        w += 1.75;
    }
    return s / w;
}

// `c` with the feature here stated (share `g`): `lb` the photo's L* blurred, `lj` blurred
// wider (the shape it is part of), `lp` its own, `coarse_lab` the face round it, `lift` the L*
// the painting adds to that face; (.rgb) the colour, (.a) how much was stated. The shape is
// the blurred photo's; within it a little of the photo's own light (an eye's white) shows.
vec4 stated_dark(vec3 c, vec2 g, float lb, float lj, float lp, vec3 coarse_lab, float lift) {
    float d = coarse_lab.x - lb;
    vec4 t = STATED_CONTRAST;
    float s = g.x * smoothstep(mix(t.x, t.z, g.y), mix(t.y, t.w, g.y), d);
    s *= smoothstep(STATED_KEEP.x, STATED_KEEP.y, (coarse_lab.x - lj) / max(d, 1.0));
    if (s <= 0.0) {
        return vec4(c, 0.0);
    }
    vec3 lab = srgb_to_lab(c);
    float lt = clamp(mix(lb, max(lp, lb), STATED_CRISP) - STATED_STRETCH * d, STATED_L.x,
                     STATED_L.y) + lift;
    s *= smoothstep(0.0, 6.0, lab.x - lt);  // only where the painting is lighter
    s *= 1.0 - smoothstep(STATED_LIGHT.x, STATED_LIGHT.y, lp - lb);  // an eye's white kept
    vec2 ab = mix(lab.yz + WARM_DARK, 0.3 * lab.yz + SEPIA_DARK, g.y);
    ab *= min(1.0, mix(STATED_CHROMA.x, STATED_CHROMA.y, g.y) / max(length(ab), 1e-3));
    vec3 dark = clamp(lab_to_srgb(vec3(lt, ab)), 0.0, 1.0);
    return vec4(mix(c, dark, STATED_OPACITY * s), s);
}

// An eye's or the mouth's opening (the features' map above OPEN_FEATURE): a painter leaves
// its lights (teeth, the whites of the eyes, a catchlight) as paper, or the lightest cool
// wash, and lays its darks (the mouth's cavity, an iris) as the face's deepest coloured dark.
// Laid at the accents' usual strength, over the washes' skin tones at half size, teeth came
// out yellower (b* +3 to +10) and darker (L* -2 to -11), cavities lifted (L* 9 -> 21) and
// catchlights at half their contrast (portrait trial F2, finding 9).
const vec2 OPEN_FEATURE = vec2(0.08, 0.3);
// the face's size in work px: an opening laid so from .. in full (smaller, its teeth and
// catchlights are a pixel or two, and its features are stated)
const vec2 OPEN_PX = vec2(40.0, 80.0);
// A light of the opening: lighter than the skin round it (L*), judged on the photo blurred
// over OPEN_JUDGE of the face, so a tooth is laid whole, its rim as its middle (judged per
// pixel, some teeth's middles were cooled and their rims not: blue-grey blotches in cream).
const vec2 OPEN_LIGHTER = vec2(2.0, 10.0);
const float OPEN_JUDGE = 0.035;
const float OPEN_JUDGE_PX = 8.0;  // reference px: at most (within the composite's tile reach)
// of that judgement: a light so wide is laid at the photo's own value, its every highlight
// (the teeth), a light less so at its light shape's (LIGHT_SHAPE: no glint kept)
const vec2 OPEN_WIDE = vec2(0.6, 1.0);
// L* a light is lifted above the washes' at most: all .. none of it (a catchlight: all)
const vec2 OPEN_LIFT = vec2(10.0, 18.0);
// b* the painting may have over the photo's there (on the paper): a light's or a pale
// one's (teeth, an eye's white, in shadow too: never more than 2 yellower), the skin's round
// it (the washes' own warmth kept)
const vec2 OPEN_WARM = vec2(1.5, 4.0);
// pale: its chroma (blurred as above) over the skin's round it, where the skin has some
// (C*: a grey photo's has none, and its washes' warmth is kept)
const vec2 OPEN_PALE = vec2(0.8, 1.0);
const vec2 OPEN_SKIN_CHROMA = vec2(6.0, 10.0);
// the darkest L* the pigment darks lay (darks.glsl: DARKEST on the paper): an iris darker in
// the photo is laid that light, and its catchlight as much lighter than the photo's, so it
// keeps its contrast (at the photo's value, Jemison's fell from 90 to 56)
const float OPEN_FLOOR = 15.0;
// A dark of the opening lies within this much of the face from one of its lights (the
// teeth, the white of the eye): a nostril's or a brow's dark, among skin, is no opening's.
const float OPEN_REACH = 0.05;
const float OPEN_REACH_PX = 8.0;  // reference px: at most (within the composite's tile reach)
const vec2 OPEN_NEAR = vec2(0.06, 0.16);  // the light's luma over the skin round it
// ... or the lips (a mouth's corner, far from its teeth): a* over the skin's round it
const vec2 OPEN_LIPS = vec2(4.0, 10.0);
const vec2 OPEN_DEEP = vec2(12.0, 24.0);  // L* under the skin round it: a lip .. a cavity
// of the photo blurred over a light shape's width that an opening's dark takes: a thin gap
// between teeth, a beard's hairs by the lips, at the photo's own, were black dots and speckle
const float OPEN_GAP = 0.85;

// The photo's lightest luma (.x) and reddest a* (.y) on a ring of radius `r` texels round
// `uv` (8 taps).
vec2 ring_max(sampler2D photo, vec2 uv, float r) {
    vec2 t = r / vec2(textureSize(photo, 0));
    vec2 m = vec2(0.0, -100.0);
    for (int i = 0; i < unfolded(8); i++) {
        float a = 0.7853982 * float(i) + 0.3926991;
        vec3 s = texture(photo, uv + t * vec2(cos(a), sin(a))).rgb;
        m = max(m, vec2(luma(s), srgb_to_lab(s).y));
    }
    return m;
}

// The photo's light shapes at least 2 `r` texels wide, at `uv` (a morphological opening of
// its luma: the darkest on a ring, taken at the point and round it, the lightest of those): a
// shape as wide keeps its edges, a lone glint narrower goes.
float light_shape(sampler2D photo, vec2 uv, float r) {
    vec2 t = r / vec2(textureSize(photo, 0));
    float m = ring_luma(photo, uv, r);
    for (int i = 0; i < unfolded(8); i++) {
        float a = 0.7853982 * float(i);
        m = max(m, ring_luma(photo, uv + t * vec2(cos(a), sin(a)), r));
    }
    return m;
}

// `c` (a pigment's colour, sRGB) no yellower on paper of colour `paper` than the photo's b*
// `b` plus `warm`, by `w`: the pigment that gives that colour there, as far as the paper is
// light enough (beyond, the paper itself: a light as light as the paper is laid as paper, not
// as a darker cool grey; a blown-out forehead's white by the brows read as blue-grey patches).
vec3 no_yellower(vec3 c, float b, float warm, vec3 paper, float w) {
    vec3 lab = srgb_to_lab(c * paper);
    float cap = b + warm;
    if (w <= 0.0 || lab.z <= cap) {
        return c;
    }
    lab.z = mix(lab.z, cap, w);
    return min(clamp(lab_to_srgb(lab), 0.0, 1.0) / max(paper, vec3(1e-3)), 1.0);
}

// `photo` at `uv` (work size), `ref` source px per reference px, `scale` work px per source
// px; `coarse_lab`: the photo's wide blur here (CIELAB); `lift`: the L* (.x) and luma (.y)
// the painting adds to the skin round here (feature_lift); `paper`: the paper's colour;
// `stated_here`: how much a dark was stated here (.x) and how grey the face is (.y).
vec3 feature_accents(vec3 c, sampler2D photo, vec2 uv, float feature, float face, float ref,
                     float scale, vec3 coarse_lab, vec2 lift, vec3 paper,
                     out vec2 stated_here) {
    stated_here = vec2(0.0);
    float small = face > 0.0 ? 1.0 - smoothstep(SMALL_FACE.x, SMALL_FACE.y, face) : 0.0;
    float k = min(feature * u_features * mix(1.0, SMALL_FEATURES, small), 1.0);
    if (k <= 0.0) {
        return c;
    }
    float lw = luma(c);
    vec3 photo_here = texture(photo, uv).rgb;
    float lp = luma(photo_here);
    vec3 plab = srgb_to_lab(photo_here);
    float face_px = face * ref * scale;
    float tiny = tiny_share(face_px);
    float tiny_shape = 0.0;  // how much a tiny face's dark feature is here: no lights in it
    float ld = lp;  // the photo's dark here
    vec2 stated = stated_share(face, coarse_lab);
    float in_feature = smoothstep(STATED_FEATURE.x, STATED_FEATURE.y, feature)
                       * min(u_features / 0.55, 1.0);
    stated.x *= in_feature * (1.0 - tiny);  // a tiny face's: tiny_feature's
    if (stated.x > 0.0 || tiny * in_feature > 0.0) {
        float r = max(1.0, min(STATED_BLUR * face, STATED_REACH) * ref) * scale;
        vec2 rs = vec2(r, tiny > 0.0 ? max(1.0, r * mix(1.0, TINY_HIGH, tiny)) : r);
        vec3 b = disc_blur(photo, uv, rs);
        vec2 rj = min(STATED_JOIN * STATED_BLUR * face, vec2(STATED_JOIN_REACH)) * ref * scale;
        vec3 bj = disc_blur(photo, uv, max(rj, vec2(r)));
        float lb = srgb_to_lab(b).x;
        float tiny_dark = 0.0;
        float lightest = 0.0;  // on a tiny face: no dark here is laid under this L*
        if (tiny > 0.0) {
            float lj = srgb_to_lab(bj).x;
            float skin = tiny_skin(photo, uv,
                                   max(1.0, min(TINY_RING * face, TINY_RING_REACH) * ref) * scale);
            float side = max(1.0, min(TINY_SIDE * face, STATED_JOIN_REACH - 0.6 * STATED_REACH)
                                  * ref) * scale;
            float depth = tiny_stroke_depth(photo, uv, rs, side, skin);
            // part of a shape: on a line (a lip line, an elongated nostril: dark along
            // itself, light across) judged along the line here (its darkness does not spread
            // thin along itself, a dot's does); on a blob (a pupil, a round nostril) as
            // round. Its darkest: its pixel's own, or the line's along it where darker (a
            // gap of noise in a line filled, a pupil kept solid dark)
            vec2 dir = tiny_line_dir(photo, uv, max(1.0, TINY_CURVE * r));
            float along = tiny_band_l(photo, uv, dir, r, 0.0);
            float line = tiny_line(photo, uv, dir, r, along, skin);
            // A dot on a line (a mouth's corner at the lip line's end) is no line: its pixel
            // stands far under the line's L* along it, where a line's pixel, noise and all,
            // lies near it. Judged along the line, the corner's darkness counted as the
            // line's and was laid 9.4 L* under the line beside it: a pin-prick (round 3)
            float lband = tiny_band_l(photo, uv, dir, rj.x, 0.5 * rs.y);
            line *= 1.0 - smoothstep(TINY_DOT.x, TINY_DOT.y,
                                     (lband - plab.x) / max(skin - plab.x, 1.0));
            float lk = mix(lj, lband, line);
            float keep = smoothstep(STATED_KEEP.x, STATED_KEEP.y,
                                    (skin - lk) / max(skin - lb, 1.0));
            vec4 t = tiny_feature(c, b, lj, min(plab.x, along), skin, depth, lift.x,
                                  keep, in_feature * tiny, tiny_shape);
            lightest = skin - depth;
            c = t.rgb;
            // (a dark laid in the lips' own colour keeps it: stated_chroma's bound is not its)
            tiny_dark = t.a * (1.0 - smoothstep(0.0, 4.0, tiny_chroma(srgb_to_lab(b))
                                                           - STATED_CHROMA.x));
        }
        vec4 st = stated_dark(c, stated, lb, srgb_to_lab(bj).x, plab.x, coarse_lab, lift.x);
        c = st.rgb;
        lw = luma(c);
        stated_here = vec2(max(st.a, tiny_dark), stated.y);
        if (tiny > 0.0) {  // the shape's value, not the webcam's noise in its every pixel
            ld = mix(lp, max(luma(b), luma(lab_to_srgb(vec3(lightest, 0.0, 0.0)))), tiny);
        }
    }
    ld += lift.y;  // the photo's dark, as light as the painting lays the skin round it
    // how much this is an eye's or the mouth's opening
    float open = smoothstep(OPEN_FEATURE.x, OPEN_FEATURE.y, feature)
                 * smoothstep(OPEN_PX.x, OPEN_PX.y, face_px) * min(u_features / 0.55, 1.0);
    float r = max(1.0, min(LIGHT_SHAPE * face, LIGHT_REACH) * ref) * scale;
    if (lw - ld > 0.03) {
        float dark = smoothstep(0.03, 0.2, lw - ld) * k;
        vec3 dense = pigment(c, 1.0 + 3.0 * dark * (lw - ld) / max(lw, 0.05));
        if (open <= 0.0) {
            return dense;
        }
        // an opening's dark, near its light: as dark as the photo's (its lift added), in
        // the photo's own dark colour
        float reach = max(1.0, min(OPEN_REACH * face, OPEN_REACH_PX) * ref) * scale;
        float skin = luma(clamp(lab_to_srgb(coarse_lab), 0.0, 1.0));
        vec2 near = ring_max(photo, uv, reach) - vec2(skin, coarse_lab.y);
        // (on a tiny face none: its openings' darks are stated, a pixel's were lone dots)
        float o = open * (1.0 - tiny)
                  * smoothstep(OPEN_DEEP.x, OPEN_DEEP.y, coarse_lab.x - plab.x)
                  * max(smoothstep(OPEN_NEAR.x, OPEN_NEAR.y, near.x),
                        smoothstep(OPEN_LIPS.x, OPEN_LIPS.y, near.y));
        if (o > 0.0) {
            vec3 deep = max(photo_here,
                            mix(photo_here, disc_blur(photo, uv, vec2(r)), OPEN_GAP));
            deep = pigment(deep, 1.0 - lift.y / max(1.0 - luma(deep), 0.05));
            dense = mix(dense, min(deep, dense), o);
        }
        return no_yellower(dense, plab.z, OPEN_WARM.y, paper, open);
    }
    if (lp - lw <= 0.06 && open <= 0.0) {
        return c;
    }
    // lighter: the paper kept, as light as the photo's light shape there, not whiter
    float ring = ring_luma(photo, uv, r);
    // ... but a catchlight, a point of light against an eye's dark, is kept (in the eye's
    // middle, on a face of some pixels)
    float catchlight = smoothstep(0.1, 0.22, lp - ring) * (1.0 - smoothstep(0.25, 0.45, ring))
                       * smoothstep(0.5, 0.8, feature)
                       * smoothstep(OPEN_PX.x, OPEN_PX.y, face_px);
    float shape = open > 0.0 ? light_shape(photo, uv, r) : ring;
    float lo = mix(min(lp, shape), lp, catchlight);
    float light = smoothstep(0.06, 0.25, lo - lw) * k * (1.0 - tiny_shape);
    if (open > 0.0) {
        // an opening's light (teeth, the white of an eye, a catchlight): reserved in full,
        // as light on the paper as the photo's, in its hue, no yellower; judged (lighter,
        // paler than the skin round it) on the photo blurred
        float rj = max(1.0, min(OPEN_JUDGE * face, OPEN_JUDGE_PX) * ref) * scale;
        vec3 jlab = srgb_to_lab(disc_blur(photo, uv, vec2(rj)));
        // pale: less coloured than the skin round it (teeth, not the skin framed by
        // spectacles), where the skin has colour to judge by
        float skin_c = length(coarse_lab.yz);
        float pale = 1.0 - smoothstep(OPEN_SKIN_CHROMA.x, OPEN_SKIN_CHROMA.y, skin_c)
                           * smoothstep(OPEN_PALE.x, OPEN_PALE.y,
                                        length(jlab.yz) / max(skin_c, 1.0));
        float judged = smoothstep(OPEN_LIGHTER.x, OPEN_LIGHTER.y, jlab.x - coarse_lab.x) * pale;
        float lighter = open * max(catchlight, judged);
        // (the cap on its yellow: a light's or a pale one's, or one much lighter than the
        // skin, however coloured: yellowish teeth in a sallow face)
        pale = max(lighter, open * max(pale * smoothstep(OPEN_SKIN_CHROMA.x,
                                                         OPEN_SKIN_CHROMA.y, skin_c),
                                       smoothstep(OPEN_LIGHTER.y - 4.0, OPEN_LIGHTER.y + 4.0,
                                                  jlab.x - coarse_lab.x)));
        c = mix(c, vec3(1.0), light * clamp((lo - lw) / max(1.0 - lw, 0.05), 0.0, 1.0));
        if (lighter <= 0.0) {
            return no_yellower(c, plab.z, mix(OPEN_WARM.y, OPEN_WARM.x, pale), paper, open);
        }
        vec3 lab = srgb_to_lab(c * paper);
        // as light as the photo where its light is wide (the teeth), else as its light shape
        // there: a glint on a spectacle frame or at a mouth's corner is no tooth
        float l_light = mix(min(plab.x, srgb_to_lab(vec3(lo)).x), plab.x,
                            smoothstep(OPEN_WIDE.x, OPEN_WIDE.y, judged))
                        + catchlight * max(OPEN_FLOOR - srgb_to_lab(vec3(ring)).x, 0.0);
        // ... but a light the washes laid far darker (a glaze over blown-out skin at a
        // mouth's corner) is left to them, but for a catchlight: reserved, it was a hole
        lighter = open * max(catchlight, judged * (1.0 - smoothstep(OPEN_LIFT.x, OPEN_LIFT.y,
                                                                    l_light - lab.x)));
        lab.x = mix(lab.x, max(lab.x, l_light), lighter);
        lab.yz = mix(lab.yz, plab.yz, lighter);
        lab.z = mix(lab.z, min(lab.z, plab.z + mix(OPEN_WARM.y, OPEN_WARM.x, pale)), open);
        return min(clamp(lab_to_srgb(lab), 0.0, 1.0) / max(paper, vec3(1e-3)), 1.0);
    }
    return mix(c, vec3(1.0), light * clamp((lo - lw) / max(1.0 - lw, 0.05), 0.0, 1.0));
}
