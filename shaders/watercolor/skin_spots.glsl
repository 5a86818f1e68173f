// A face's spots laid back (skin_spots.frag found them): freckles and moles the washes
// smoothed away, each a small soft dab over the flesh wash, a glaze of the spot's own colour
// (its transmittance against the skin round it), a little lighter than the photo's (a dab of
// thin paint: the sitter's scatter kept, not a photo's pixels). Needs color.glsl.
const float SPOT_LAID = 0.95;  // of the spot's depth laid (the wash shows a little through)
const float SPOT_HUE = 0.7;    // of the spot's own hue against the skin's (the rest its depth)

// `spot`: skin_spots.frag's output here; `kept`: how much of the painting is kept here.
vec3 spotted(vec3 c, vec4 spot, float kept) {
    float a = spot.a * kept;
    if (a <= 0.0) {
        return c;
    }
    vec3 glaze = mix(vec3(luma(spot.rgb)), spot.rgb, SPOT_HUE);
    return c * mix(vec3(1.0), glaze, SPOT_LAID * min(1.0, a));
}
