// A person's jewellery laid back (jewels.frag found it): where the washes smoothed a pearl, a
// stud or a chain away, the photo's own drawing of it over the washes (its lights, its shaded
// side, the dark touch beside it, in its own colour: a pearl's grey-white, gold's yellow), its
// highlight reserved as the paper's white, as a painter leaves it. Needs color.glsl.
const float JEWEL_LAID = 0.9;  // of the photo's drawing laid (the washes show a little through)
const vec2 JEWEL_WHITE = vec2(0.75, 0.95);  // the photo's luma from which a light is paper
const float JEWEL_PAPER = 0.6;  // of the way to the paper's white a highlight is lifted

// `s`: jewels.frag's strength here; `photo`: the picture's colour here; `kept`: how much of
// the painting is kept here (none on bare paper).
vec3 jewelled(vec3 c, float s, vec3 photo, float kept) {
    float a = s * kept;
    if (a <= 0.0) {
        return c;
    }
    vec3 jewel = mix(photo, vec3(1.0), JEWEL_PAPER * smoothstep(JEWEL_WHITE.x, JEWEL_WHITE.y,
                                                                luma(photo)));
    return mix(c, jewel, JEWEL_LAID * min(1.0, a));
}
