// The shadow key (engine/face_shade.py): a face in deep shade (its lights a tenth to a fifth
// of the picture's) laid in a paler first wash, as a painter lights it a little above its
// surroundings and puts its few darks back: a gain in linear light (prepare.frag) on the head
// round the face (u_heads), full over the face and the hair beside it, fading out over about
// half a face past it, so the lift reads as the face's light and not as a halo.
#include "watercolor/figure_rest.glsl"
uniform float u_head_lift[HEADS];  // each head's gain (1: in the light), u_heads' order
// A face's head, in its box's half sides from its centre (above the centre UPPER_LOWER.x as
// far, figure_rest.glsl): the lift full within LIFT_REACH.x, none beyond LIFT_REACH.y.
const vec2 LIFT_REACH = vec2(1.2, 2.0);

// The shadow key's gain at `at` (source px of the whole picture): the largest of the heads'.
float face_lift(vec2 at) {
    float gain = 1.0;
    for (int i = 0; i < HEADS; i++) {
        vec4 h = u_heads[i];
        if (h.z <= 0.0) {
            break;
        }
        if (u_head_lift[i] <= 1.0) {
            continue;
        }
        vec2 d = (at - h.xy) / h.zw;
        float r = length(vec2(d.x, d.y > 0.0 ? d.y : d.y / UPPER_LOWER.x));
        gain = max(gain, mix(u_head_lift[i], 1.0, smoothstep(LIFT_REACH.x, LIFT_REACH.y, r)));
    }
    return gain;
}
