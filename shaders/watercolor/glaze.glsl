// A shadow glaze (issue 29, items 2 and 3): the shadows laid as one transparent, cool wash
// over the first layer once it has dried, as a painter lays them. Its shape comes from the
// form (the abstraction halfway to the wide wash), not from the first layer's tones, so its
// hard border crosses theirs; beneath it the first layer is laid lighter by what the glaze
// takes away (the values stay the photo's), and the two mix as transparent layers do: the
// glaze's transmittance multiplies the light that reaches the paper (the thin-layer limit of
// Kubelka-Munk: no scattering, reflectance times transmittance). On a face's skin it lies
// where the form falls below the skin round it, and its border is hard (dried) only where
// it faces the light (the top of the shadow under the jaw, the socket under the brow, the
// shadow side's turn), soft elsewhere: one dried edge per glaze that follows the form, not
// a contour round every tone step (hard everywhere, a face's tones read as patches: 80625de).
// Needs color.glsl and tones.glsl (keyed).
uniform float u_glaze;  // 0..1: the glaze's strength (0: none)
uniform vec2 u_light;  // .x the main face's light: -1 from the left .. 1 from the right

const float GLAZE_FORM = 0.5;     // of the abstraction in the glaze's field (rest: wide wash)
const float GLAZE_LEVEL = 0.48;   // keyed lightness (0..1) below which the glaze lies
const float GLAZE_LIFT = 0.1;     // the lift's half span around it (the form's graded shade)
const float GLAZE_TREMOR = 0.08;  // how far the noise moves its border (keyed lightness)
const float GLAZE_ON_SKIN = 0.6;  // of its strength a face's skin takes
// A full glaze's colour: the local colour's own pigment (the wide wash's hue: a red's shadow
// is a deeper red, not mud) with some ultramarine (cooler shadows; less on skin, where blue
// reads ashen), letting GLAZE_Y of the light through. On a face's skin the pigment is neutral,
// with its share of ultramarine: a painter glazes flesh's shadows with a neutral-to-cool mix,
// the warmth coming from the first layer and the paper. In the skin's own hue the glaze
// multiplied the flesh into itself: its shadows came out redder and more saturated than the
// photo's (trial F9, finding 9: skin shadows a* +1.9, C* +1.6 over the photo laid on the
// paper, half of it the glaze; the dark-skinned faces' shadows orange).
const float GLAZE_Y = 0.62;
const float GLAZE_HUE_L = 65.0;   // L* at which the local hue is taken
const vec3 GLAZE_COOL = vec3(0.58, 0.64, 0.80);  // ultramarine and a little burnt sienna
const vec2 GLAZE_COOL_SHARE = vec2(0.4, 0.15);   // of the glaze's colour: off and on skin

// The glaze's field (keyed lightness, 0..1) at a texel: the form `own` drawn towards the wide
// wash `coarse`, its border moved by the noise `wander` (0..1).
float glaze_field(vec3 own, vec3 coarse, float wander) {
    return keyed(mix(coarse.x, own.x, GLAZE_FORM) / 100.0) + GLAZE_TREMOR * (wander - 0.5);
}

// On a face's skin (`skin` 0..1), the glaze's field drawn down where the skin round it
// (`coarse`, the wide wash) is lighter than GLAZE_LEVEL: the glaze lies where the form falls
// FACE_GLAZE_DROP below it (a light face's shadows lie above GLAZE_LEVEL: it had none).
const float FACE_GLAZE_DROP = 0.05;  // keyed lightness of the field (half the form's drop)
float face_glaze_field(float field, vec3 coarse, float skin) {
    return field - skin * max(0.0, keyed(coarse.x / 100.0) - FACE_GLAZE_DROP - GLAZE_LEVEL);
}

// Where the light comes from on the picture (texture coordinates, y down the picture):
// above, and to the side the face is lit from.
vec2 light_direction() {
    return normalize(vec2(clamp(u_light.x, -1.0, 1.0), -1.0));
}

// The glaze's border width on a face's skin (`skin`): `width` (one texel: hard) where the
// field (lighter outwards, gradient `grad`) rises towards the light, the graded span where
// it does not (soft).
const vec2 FACING = vec2(0.1, 0.5);  // the cosine between the border's normal and the light
float glaze_width(float width, vec2 grad, float skin) {
    float facing = smoothstep(FACING.x, FACING.y,
                              dot(grad / max(length(grad), 1e-6), light_direction()));
    return mix(width, 2.0 * GLAZE_LIFT, skin * (1.0 - facing));
}

// How much of a full glaze lies here: .x graded (the form's shade, which the first layer is
// lifted by), .y with a hard border `width` (of the field) wide, the glaze as laid.
vec2 glaze_cover(float field, float width) {
    float graded = smoothstep(GLAZE_LEVEL + GLAZE_LIFT, GLAZE_LEVEL - GLAZE_LIFT, field);
    float hard = clamp(0.5 + (GLAZE_LEVEL - field) / max(width, 1e-4), 0.0, 1.0);
    return vec2(graded, hard);
}

// The light a full glaze lets through over the local colour `local` (a*b*), on skin `skin`
// (0..1).
vec3 glaze_colour(vec2 local, float skin) {
    vec3 hue = srgb_to_linear(lab_to_srgb(vec3(GLAZE_HUE_L, local)));
    hue /= max(luma(hue), 1e-3);  // (luma's weights on linear values: luminance)
    hue = mix(hue, vec3(1.0), skin);  // (a neutral of unit luma: grey)
    vec3 cool = GLAZE_COOL / luma(GLAZE_COOL);
    return min(GLAZE_Y * mix(hue, cool, mix(GLAZE_COOL_SHARE.x, GLAZE_COOL_SHARE.y, skin)),
               vec3(1.0));
}

// The light a glaze of colour `full` (glaze_colour's) lets through where it covers `cover`
// (0..1), on skin `skin`.
vec3 glaze_through(vec3 full, float cover, float skin) {
    return mix(vec3(1.0), full, u_glaze * cover * mix(1.0, GLAZE_ON_SKIN, skin));
}

// L* of the first layer `lab` beneath a glaze letting `through` through: lighter by what the
// glaze takes from its colour (a red glaze takes less from a red than from a grey).
float glaze_lifted(vec3 lab, vec3 through) {
    vec3 c = srgb_to_linear(lab_to_srgb(lab));
    float kept = luma(c * through) / max(luma(c), 1e-5);
    float y = lab_finv((lab.x + 16.0) / 116.0) / max(kept, 1e-3);
    return min(116.0 * lab_f(min(y, 1.0)) - 16.0, 100.0);
}

// The Lab tone `lab` with a glaze letting `through` through laid over it.
vec3 glazed(vec3 lab, vec3 through) {
    return srgb_to_lab(linear_to_srgb(srgb_to_linear(lab_to_srgb(lab)) * through));
}
