// The features' drawing (eyes, brows, nostrils, mouth: the subject map's .y): where the photo
// is darker than the wash laid over it, a crisp accent in a denser layer of the wash's own
// pigment (a coloured dark, not ink); where it is lighter (catchlights, the shine on lips),
// the paper kept. The washes are painted at half size; the accents at the picture's own, so
// the eyes keep their drawing. Needs pigment.glsl and color.glsl.
uniform float u_features;

// `face`: the faces' median size in reference px (0: none). A small face (a group, a webcam
// at a distance) has features of a few pixels, which the washes and their half size blur
// away: its accents are laid stronger.
const vec2 SMALL_FACE = vec2(90.0, 220.0);  // reference px: small .. large enough
const float SMALL_FEATURES = 1.8;  // the accents' gain on a small face
vec3 feature_accents(vec3 c, vec3 photo, float feature, float face) {
    float small = face > 0.0 ? 1.0 - smoothstep(SMALL_FACE.x, SMALL_FACE.y, face) : 0.0;
    float k = min(feature * u_features * mix(1.0, SMALL_FEATURES, small), 1.0);
    if (k <= 0.0) {
        return c;
    }
    float lw = luma(c);
    float lp = luma(photo);
    float dark = smoothstep(0.03, 0.2, lw - lp) * k;
    c = pigment(c, 1.0 + 3.0 * dark * (lw - lp) / max(lw, 0.05));
    float light = smoothstep(0.06, 0.25, lp - lw) * k;
    return mix(c, vec3(1.0), light);
}
