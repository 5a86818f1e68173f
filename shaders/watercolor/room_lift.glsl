// Counterchange round a portrait: the room is laid as a light, loose wash of its own hue only
// where the figure's edge next to it is about as dark as the room (dark hair or a dark suit
// against a dark room, which would merge into one slab: trial F2, finding 1), lifted as far
// as separates the two; where the figure's edge is light (a face, a white shirt, a spacesuit)
// the photo's dark room is kept, dark against light (blind judges preferred it there).
// room_lift_at (the vignette pass, quarter size) measures the figure's value near its
// outline and the room's own value from taps of the photo's CIELAB L* weighted by the figure;
// room_lifted (the composite) lays the wash. Needs color.glsl.

const float LIFT_REACH = 115.0;  // reference px (0.16 of a 720-line frame's short side, the
                                 // vignette's own reach): how far from the figure's outline
                                 // the room is lifted, fully within half of it
const float LIFT_SEP = 36.0;    // L*: how much lighter than the figure's edge the room is laid
const float LIFT_KNEE = 78.0;   // L*: rooms lighter than this keep their value
const vec2 LIFT_DARK = vec2(42.0, 60.0);   // L* of the figure's edge: dark .. light (kept)
const vec2 LIFT_APART = vec2(15.0, 32.0);  // L*: the figure this much lighter than the room
                                           // already stands apart (kept)
const vec2 LIFT_ROOM = vec2(0.2, 0.6);     // the figure's values over which the room ends
const float LIFT_SOLID = 0.7;              // the figure's value where its edge is met
const int LIFT_DIRS = 12;
const int LIFT_STEPS = 8;  // along each direction, out to LIFT_REACH

// How much the room at `uv` keeps its value (.x: 1 kept .. 0 laid as the light wash) and
// the wash's floor (.y: L* / 100). `figure`: .x the figure (figure.frag); `lab`: the photo in
// CIELAB (.x L*); `reach`: LIFT_REACH in uv units per axis. Along a few directions the
// figure's edge is met where the figure turns solid and its value read there (two taps, at
// the edge and a step inside): the nearest edges count most, so a room beside dark curls
// answers to the curls, not to the face behind them.
vec2 room_lift_at(sampler2D figure, sampler2D lab, vec2 uv, vec2 reach) {
    float room = 1.0 - smoothstep(LIFT_ROOM.x, LIFT_ROOM.y, texture(figure, uv).x);
    if (room <= 0.0) {
        return vec2(1.0, 0.0);
    }
    float l_room = texture(lab, uv).x;
    float l_fig = 0.0;
    float w_fig = 0.0;
    float nearest = 1.0;  // of the reach
    for (int i = 0; i < LIFT_DIRS; i++) {
        float a = 6.2831853 * float(i) / float(LIFT_DIRS);
        vec2 step = reach * vec2(cos(a), sin(a)) / float(LIFT_STEPS);
        for (int k = 1; k <= LIFT_STEPS; k++) {
            vec2 q = uv + float(k) * step;
            if (texture(figure, q).x >= LIFT_SOLID) {
                float t = float(k) / float(LIFT_STEPS);
                float w = (1.0 - t) * (1.0 - t) + 0.01;
                l_fig += w * 0.5 * (texture(lab, q).x + texture(lab, q + 0.5 * step).x);
                w_fig += w;
                nearest = min(nearest, t);
                break;
            }
        }
    }
    if (w_fig <= 0.0) {
        return vec2(1.0, 0.0);
    }
    l_fig /= w_fig;
    float lift = room * (1.0 - smoothstep(0.5, 1.0, nearest))
                 * (1.0 - smoothstep(LIFT_DARK.x, LIFT_DARK.y, l_fig))
                 * (1.0 - smoothstep(LIFT_APART.x, LIFT_APART.y, l_fig - l_room));
    float floor_l = min(l_fig + LIFT_SEP, LIFT_KNEE - 4.0);
    return vec2(1.0 - lift, floor_l / 100.0);
}

// `c` (sRGB values) laid as the room's light wash by `w` (0 kept .. 1 the wash), its value
// lifted above `floor_l` (L*): values below LIFT_KNEE compressed into floor_l .. LIFT_KNEE, so
// the room's own light and dark still show faintly; the colour diluted along its hue (its
// transmittance raised to a power, as thinned pigment), a navy wall a pale blue, not a grey.
vec3 room_lifted(vec3 c, float w, float floor_l) {
    if (w <= 0.0) {
        return c;
    }
    vec3 lin = max(srgb_to_linear(c), vec3(1e-3));
    float y = dot(lin, vec3(0.2126, 0.7152, 0.0722));
    float l = 116.0 * lab_f(y) - 16.0;
    if (l >= LIFT_KNEE) {
        return c;
    }
    float target = floor_l + (LIFT_KNEE - floor_l) * max(l, 0.0) / LIFT_KNEE;
    float k = log(lab_finv((target + 16.0) / 116.0)) / log(y);  // (0, 1): thinner pigment
    return mix(c, linear_to_srgb(pow(lin, vec3(k))), w);
}
