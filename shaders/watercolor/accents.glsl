// The features' drawing (eyes, brows, nostrils, mouth: the subject map's .y): where the photo
// is darker than the wash laid over it, a crisp accent in a denser layer of the wash's own
// pigment (a coloured dark, not ink); where a light shape of it is lighter (catchlights, the
// whites of the eyes, the shine on lips), the paper kept as far as the photo is light. The
// washes are painted at half size; the accents at the picture's own, so the eyes keep their
// drawing. On a painting lighter than the photo (a pale sketch, a high key) the darks keep
// the photo's contrast against the skin round them (`lift`: feature_lift.glsl), never more.
// Needs pigment.glsl and color.glsl.
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

// `photo` at `uv` (work size), `ref` source px per reference px, `scale` work px per source
// px; `coarse_lab`: the photo's wide blur here (CIELAB); `lift`: the L* (.x) and luma (.y)
// the painting adds to the skin round here (feature_lift); `stated_here`: how much a dark was
// stated here (.x) and how grey the face is (.y).
vec3 feature_accents(vec3 c, sampler2D photo, vec2 uv, float feature, float face, float ref,
                     float scale, vec3 coarse_lab, vec2 lift, out vec2 stated_here) {
    stated_here = vec2(0.0);
    float small = face > 0.0 ? 1.0 - smoothstep(SMALL_FACE.x, SMALL_FACE.y, face) : 0.0;
    float k = min(feature * u_features * mix(1.0, SMALL_FEATURES, small), 1.0);
    if (k <= 0.0) {
        return c;
    }
    float lw = luma(c);
    float lp = luma(texture(photo, uv).rgb);
    vec2 stated = stated_share(face, coarse_lab);
    stated.x *= smoothstep(STATED_FEATURE.x, STATED_FEATURE.y, feature)
                * min(u_features / 0.55, 1.0);
    if (stated.x > 0.0) {
        float r = max(1.0, min(STATED_BLUR * face, STATED_REACH) * ref) * scale;
        vec3 b = disc_blur(photo, uv, vec2(r));
        vec2 rj = min(STATED_JOIN * STATED_BLUR * face, vec2(STATED_JOIN_REACH)) * ref * scale;
        vec3 bj = disc_blur(photo, uv, max(rj, vec2(r)));
        vec4 st = stated_dark(c, stated, srgb_to_lab(b).x, srgb_to_lab(bj).x,
                              srgb_to_lab(texture(photo, uv).rgb).x, coarse_lab, lift.x);
        c = st.rgb;
        lw = luma(c);
        stated_here = vec2(st.a, stated.y);
    }
    float ld = lp + lift.y;  // the photo's dark, as light as the painting lays the skin round it
    float dark = smoothstep(0.03, 0.2, lw - ld) * k;
    c = pigment(c, 1.0 + 3.0 * dark * (lw - ld) / max(lw, 0.05));
    if (lp - lw <= 0.06) {
        return c;
    }
    // lighter: the paper kept, as light as the photo's light shape there, not whiter
    float r = max(1.0, min(LIGHT_SHAPE * face, LIGHT_REACH) * ref) * scale;
    float ring = ring_luma(photo, uv, r);
    // ... but a catchlight, a point of white against an eye's black, is kept (in the eye's
    // middle, on a face not small)
    float catchlight = smoothstep(0.75, 0.9, lp) * (1.0 - smoothstep(0.08, 0.2, ring))
                       * smoothstep(0.7, 0.9, feature) * (1.0 - small);
    float lo = mix(min(lp, ring), lp, catchlight);
    float light = smoothstep(0.06, 0.25, lo - lw) * k;
    return mix(c, vec3(1.0), light * clamp((lo - lw) / max(1.0 - lw, 0.05), 0.0, 1.0));
}
