// A figure beyond its face and features (hair, clothes), 0..1, from the focus map (.y the
// features, .z the face, .w the figure: focus.frag).
float beyond_face(vec4 focus) {
    return focus.w * (1.0 - smoothstep(0.1, 0.5, focus.z)) * (1.0 - smoothstep(0.1, 0.4, focus.y));
}

// The heads round the faces found (trial F4's judges, round 2): the largest HEADS faces'
// boxes, each as its centre and half sides (.xy, .zw; source px of the whole picture, the
// largest first, zeros past the faces found: engine/style_stage.py). Eight: a group photo's
// fifth child (four, trial F10) had its afro laid as the figure's clothes, crisp terraced
// rings with hard dried borders; a crowd's smaller faces past the eighth keep that.
const int HEADS = 8;
uniform vec4 u_heads[HEADS];
// A face's head, in its box's half sides from the box's centre (an ellipse's radii): the hair
// round it (above and beside the face, up to about half a face size past the box) .. beyond;
// and the band round the face's oval (the forehead's hairline, a temple, the hair beside the
// cheeks). The box spans the brows to the chin: above its centre the radii are UPPER times as
// high (the hairline lies 1.3-1.6 half sides above it, the hair over that), below it they
// narrow (LOWER) and fade out down to the chin line (the box's bottom, at 1): a collar or a
// shoulder beside the jaw is clothes.
const vec2 HEAD_REACH = vec2(1.8, 2.2);
const vec2 HAIRLINE_REACH = vec2(1.3, 1.7);
const vec2 UPPER_LOWER = vec2(1.3, 0.6);  // UPPER, LOWER
const vec2 CHIN_LINE = vec2(0.4, 0.9);  // down the box from its centre

// How much `at` (source px of the whole picture) lies in a face's head (.x) and in the band
// round its oval (.y), 0..1: neither below a chin line, nor on the body, its hands or clothes.
vec2 head_round(vec2 at) {
    vec2 k = vec2(0.0);
    for (int i = 0; i < HEADS; i++) {
        vec4 h = u_heads[i];
        if (h.z <= 0.0) {
            break;
        }
        vec2 d = (at - h.xy) / h.zw;
        float r = length(vec2(d.x, d.y / (d.y > 0.0 ? UPPER_LOWER.y : UPPER_LOWER.x)));
        float above = 1.0 - smoothstep(CHIN_LINE.x, CHIN_LINE.y, d.y);
        k = max(k, above * vec2(1.0 - smoothstep(HEAD_REACH.x, HEAD_REACH.y, r),
                                1.0 - smoothstep(HAIRLINE_REACH.x, HAIRLINE_REACH.y, r)));
    }
    return k;
}

// Where round a face hair is laid as a few graded washes with their borders hard only where
// the photo breaks (tones.glsl's hair_tone, composite.frag), 0..1: in the band round the face
// (a forehead's hairline laid in stepped bands, a hard pale ledge where it meets the hair)
// and over light hair (grey, white: rings of bands) within the head; dark hair beyond the
// band and a figure's clothes keep the crisp layered washes with hard edges (their folds).
// `head`: head_round's; `lab`: the colour laid there (CIELAB).
const vec2 LIGHT_HAIR = vec2(28.0, 42.0);   // L*: dark (L* 13-20 curls: crisp) .. grey hair
const vec2 GREY_HAIR = vec2(22.0, 12.0);    // chroma: coloured .. grey
float hair_graded(vec2 head, vec3 lab) {
    float light = smoothstep(LIGHT_HAIR.x, LIGHT_HAIR.y, lab.x)
                  * smoothstep(GREY_HAIR.x, GREY_HAIR.y, length(lab.yz));
    return head.x * max(head.y, light);
}
