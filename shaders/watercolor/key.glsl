// The style's key: the middle tones lifted (high key) or dropped (low key), the paper and the
// darkest darks kept. Shared by the tones (tones.glsl) and the features' lift (feature_lift.glsl).
uniform float u_key;  // the tones' key: > 0 lifts the middle tones (high key), < 0 drops them

// A high key on a person's skin: the key lifts the middle tones most, where dark skin sits,
// and at its full strength (0.7, soft_wash) every complexion came out the same pale beige
// (skin L* 42 -> 63, 35 -> 63, while 82 -> 84). A painter working high-key thins every wash,
// but the darkest skin stays the darkest large shape and skins keep their order and most of
// their difference: skin takes SKIN_KEY of the key up to SKIN_LIGHT.x, the whole key from
// SKIN_LIGHT.y (pale skin as light as the rest of the look). Still monotone in L: the
// lighter, the more it is lifted. A low key (< 0) darkens skin with the rest.
const float SKIN_KEY = 0.0;
const vec2 SKIN_LIGHT = vec2(0.55, 0.85);  // lightness (0..1)

// A tone's lightness (0..1) in the style's key: L^(2^-key), so black and white (the paper,
// the lights) stay where they are and the middle tones move; `skin` (0..1): how much it is a
// person's skin, which a high key lifts less (above).
float keyed_skin(float L, float skin) {
    if (u_key == 0.0) {
        return L;
    }
    float share = u_key > 0.0
        ? mix(1.0, mix(SKIN_KEY, 1.0, smoothstep(SKIN_LIGHT.x, SKIN_LIGHT.y, L)), skin) : 1.0;
    return pow(clamp(L, 0.0, 1.0), exp2(-u_key * share));
}

// A tone's lightness in the style's key (see keyed_skin), not skin.
float keyed(float L) {
    return keyed_skin(L, 0.0);
}
