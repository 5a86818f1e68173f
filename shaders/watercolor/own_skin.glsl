uniform vec4 u_face_skin;  // CIELAB; .w 1 where measured, 0 not (no face mesh)

// How much a colour `lab` is the found face's own skin (u_face_skin: its cheeks' colour,
// engine/face_skin.py), 0..1 (trial F8, finding 8): as light as it or lighter, or darker by
// a shadow's SKIN_SHADE at most (hair a few tones darker than the face is no skin); of its
// chromaticity within SKIN_NEAR (a light on skin whitens it: towards the paper its chroma
// falls in proportion, as a sheen's). Whatever the face's colour: an orange-lit forehead, a
// grey photo's, beyond skin_tone's bands (a grey forehead under the hairline was laid as the
// figure's hair and clothes: a pale ledge); light-brown hair within them, a shadow's depth
// or more darker than the face (trial F8's f16: L* 44-48 by cheeks at 69), not.
const vec2 SKIN_SHADE = vec2(22.0, 14.0);  // L* below the face's skin: hair .. a shadow on it
const vec2 SKIN_NEAR = vec2(6.0, 0.25);    // a* b* off it: L* units + of its chroma (.. x 1.6)
float own_skin_shaded(vec3 lab, vec2 shade_to) {
    vec3 f = u_face_skin.xyz;
    float shade = smoothstep(f.x - shade_to.x, f.x - shade_to.y, lab.x);
    float whiter = lab.x > f.x ? clamp((100.0 - lab.x) / max(100.0 - f.x, 1.0), 0.0, 1.0)
                               : 1.0;
    float tol = SKIN_NEAR.x + SKIN_NEAR.y * length(f.yz);
    return shade * (1.0 - smoothstep(tol, 1.6 * tol, length(lab.yz - f.yz * whiter)));
}

float own_skin(vec3 lab) {
    return own_skin_shaded(lab, SKIN_SHADE);
}

// ... on a person's body, away from the head (`head`: figure_rest.glsl head_round's .x, 1 on
// the head): a limb's shadow side as dark as BODY_SHADE below the face's cheeks (trial F11,
// finding 4: crossed forearms at L* 30-40 by cheeks at 60 were counted as clothes and laid
// in six crisp tones, 4-5 hard-edged bands down the arm) where it keeps DEEP_CHROMA of the
// face's chroma (shaded skin keeps its colour: the forearms 0.9; khaki trousers, a grey
// jacket of the skin's hue 0.4-0.65 keep their crisp folds); on the head SKIN_SHADE (hair).
const vec2 BODY_SHADE = vec2(40.0, 30.0);
const vec2 DEEP_CHROMA = vec2(0.7, 0.85);  // its chroma over the face's: clothes .. skin
float own_body_skin(vec3 lab, float head) {
    float kept = length(lab.yz) / max(length(u_face_skin.yz), 1.0);
    float deep = own_skin_shaded(lab, BODY_SHADE)
                 * smoothstep(DEEP_CHROMA.x, DEEP_CHROMA.y, kept);
    float own = own_skin(lab);
    return mix(max(own, deep), own, head);
}
