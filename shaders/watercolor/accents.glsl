// The features' drawing (eyes, brows, nostrils, mouth: the subject map's .y): where the photo
// is darker than the wash laid over it, a crisp accent in a denser layer of the wash's own
// pigment (a coloured dark, not ink); where a light shape of it is lighter (catchlights, the
// whites of the eyes, the shine on lips), the paper kept as far as the photo is light. The
// washes are painted at half size; the accents at the picture's own, so the eyes keep their
// drawing. Needs pigment.glsl and color.glsl.
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

// `photo` at `uv` (work size), `ref` source px per reference px, `scale` work px per source
// px.
vec3 feature_accents(vec3 c, sampler2D photo, vec2 uv, float feature, float face, float ref,
                     float scale) {
    float small = face > 0.0 ? 1.0 - smoothstep(SMALL_FACE.x, SMALL_FACE.y, face) : 0.0;
    float k = min(feature * u_features * mix(1.0, SMALL_FEATURES, small), 1.0);
    if (k <= 0.0) {
        return c;
    }
    float lw = luma(c);
    float lp = luma(texture(photo, uv).rgb);
    float dark = smoothstep(0.03, 0.2, lw - lp) * k;
    c = pigment(c, 1.0 + 3.0 * dark * (lw - lp) / max(lw, 0.05));
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
