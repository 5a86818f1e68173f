// How much lighter a look lays a face's skin than the default look does (a pale sketch's
// dilution, a high key): the features' accents (accents.glsl), whose darks are the photo's
// values as the default look shows them, are lifted as far, so they keep the photo's contrast
// against that skin. At the photo's absolute values a lifted face got caterpillar brows and
// clown-dot nostrils (brow minus forehead L* -16 in a photo, -41 in pale_wash). The look's
// lift of the skin round the feature (`coarse`, the photo's wide blur): its key (key.glsl,
// as on a face's skin)
// and its dilution (darks.glsl, as on a face's skin), against the default's dilution at key 0; never below 0 (a
// darker look keeps the accents it had). Needs color.glsl, darks.glsl and key.glsl.
const float TUNED_DILUTION = 0.22;  // the default look's (the accents were tuned on it)

// (.x) L* and (.y) luma the look adds to the skin round here, `coarse_lab` (CIELAB).
vec2 feature_lift(vec3 coarse_lab, float dilution) {
    vec3 seen = clamp(lab_to_srgb(coarse_lab), 0.0, 1.0);
    vec3 laid = clamp(lab_to_srgb(vec3(100.0 * keyed_skin(coarse_lab.x / 100.0, 1.0),
                                       coarse_lab.yz)), 0.0, 1.0);
    vec3 painted = diluted_skin(laid, dilution, 1.0, coarse_lab.x / 100.0);
    vec3 tuned = diluted(seen, TUNED_DILUTION);
    return max(vec2(srgb_to_lab(painted).x - srgb_to_lab(tuned).x,
                    luma(painted) - luma(tuned)), 0.0);
}
