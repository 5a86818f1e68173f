// The style's key: the middle tones lifted (high key) or dropped (low key), the paper and the
// darkest darks kept. Shared by the tones (tones.glsl) and the features' lift (feature_lift.glsl).
uniform float u_key;  // the tones' key: > 0 lifts the middle tones (high key), < 0 drops them

// A tone's lightness (0..1) in the style's key: L^(2^-key), so black and white (the paper,
// the lights) stay where they are and the middle tones move.
float keyed(float L) {
    return u_key == 0.0 ? L : pow(clamp(L, 0.0, 1.0), exp2(-u_key));
}
