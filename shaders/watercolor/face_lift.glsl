// The shadow key (engine/face_shade.py): a face in deep shade (its lights a tenth to a fifth
// of the picture's) laid in a paler first wash, as a painter lights it a little above its
// surroundings and puts its few darks back: a gain in linear light (prepare.frag) on the
// face's own skin, where the face map says face (engine/subject_map.py's .r: the mesh's oval,
// fading out just past it), and not on the hair, the background beside the head or the
// clothes: keyed over the whole head (to two half sides past the box), a white head of hair
// went to bare paper, a radiator beside it lost its wash and the collar turned a mottled
// grey far lighter than shot (trial F9's g10, judged blind).
#include "watercolor/figure_rest.glsl"
uniform float u_head_lift[HEADS];  // each head's gain (1: in the light), u_heads' order
// A face's head, in its box's half sides from its centre (above the centre UPPER_LOWER.x as
// far, figure_rest.glsl): each head's key reaches its own oval (within LIFT_REACH.x) and not
// a neighbour's (none beyond LIFT_REACH.y) ...
const vec2 LIFT_REACH = vec2(1.1, 1.6);
// ... and stops at the chin (half sides below the centre): the face map carries the skin
// on down the neck (engine/neck.py), into the collar's shadow
const vec2 CHIN = vec2(0.95, 1.25);

// The shadow key's gain at `at` (source px of the whole picture) where the face map gives
// `face` (0..1): the largest of the heads'.
float face_lift(vec2 at, float face) {
    float gain = 1.0;
    if (face <= 0.0) {
        return gain;
    }
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
        float on = face * (1.0 - smoothstep(LIFT_REACH.x, LIFT_REACH.y, r))
                   * (1.0 - smoothstep(CHIN.x, CHIN.y, d.y));
        gain = max(gain, mix(1.0, u_head_lift[i], on));
    }
    return gain;
}
