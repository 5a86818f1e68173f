// The features' drawing (eyes, brows, nostrils, mouth: the subject map's .y): where the photo
// is darker than the wash laid over it, a crisp accent down to the photo's own darkness (a
// painter's darkest, crispest marks; pigment_darks then mixes them as coloured darks, never
// black); where it is lighter (catchlights, the shine on lips), the paper kept. The washes
// are painted at half size; the accents at the picture's own, so the eyes keep their
// drawing. Needs color.glsl.
uniform float u_features;

// `face`: the faces' median size in reference px (0: none). A small face (a group, a webcam
// at a distance) has features of a few pixels, which the washes and their half size blur
// away: its accents are laid stronger.
const vec2 SMALL_FACE = vec2(90.0, 220.0);  // reference px: small .. large enough
const float SMALL_FEATURES = 1.8;  // the accents' gain on a small face
// The features' map is soft blobs (an eye's sigma 0.07 of the face): the accents are laid
// fully from 0.45 of it, so an eye's corners, a smile's ends and the lids under a glasses'
// frame are drawn, not only the blobs' centres (linear in the map, half of a webcam face's
// eye was drawn at a third of its strength).
const vec2 FEATURE_CORE = vec2(0.1, 0.45);
// How much darker than the wash (luma) the photo is where a mark starts .. is fully drawn:
// above the skin's pores and a webcam's noise.
const vec2 ACCENT_STEP = vec2(0.05, 0.18);
// A mark's colour: the photo's hue at its chroma times this (the wash's own pigment
// densified, as before, turned a reddish wash round the eyes into red, muddy eyes).
const float ACCENT_CHROMA = 0.7;

vec3 feature_accents(vec3 c, vec3 photo, float feature, float face) {
    float small = face > 0.0 ? 1.0 - smoothstep(SMALL_FACE.x, SMALL_FACE.y, face) : 0.0;
    float k = min(smoothstep(FEATURE_CORE.x, FEATURE_CORE.y, feature) * u_features
                  * mix(1.0, SMALL_FEATURES, small), 1.0);
    if (k <= 0.0) {
        return c;
    }
    float lw = luma(c);
    float lp = luma(photo);
    float dark = smoothstep(ACCENT_STEP.x, ACCENT_STEP.y, lw - lp) * k;
    if (dark > 0.0) {
        // the luma aimed at, reached exactly: a density that scales with (1 - lw) could not
        // darken a light wash (a grey photo's pale face) to its eyes' darkness
        float target = mix(lw, lp, dark);
        vec3 hue = mix(c / max(lw, 0.05), photo / max(lp, 0.05), dark);
        hue = mix(vec3(luma(hue)), hue, mix(1.0, ACCENT_CHROMA, dark));
        c = clamp(hue * (target / max(luma(hue), 1e-3)), 0.0, 1.0);
    }
    float light = smoothstep(0.06, 0.25, lp - lw) * k;
    return mix(c, vec3(1.0), light);
}
