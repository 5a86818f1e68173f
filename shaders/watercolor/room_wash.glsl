// A dark room behind a portrait, laid as a painter lays it: at most one light, loose wash of
// its own hue, clearly lighter than the hair it surrounds, never a slab as dark as the figure
// (trial F2: the kept background at L* 22-42, darker than the person, merged with the hair's
// outline). Values darker than ROOM_KNEE are compressed into ROOM_FLOOR..ROOM_KNEE (L*): the
// room's own light and dark still show, faintly; a light room keeps its value. The colour is
// diluted along its hue (its transmittance raised to a power, as thinned pigment), so a navy
// wall becomes a pale blue wash, not a grey. Needs color.glsl.
const float ROOM_FLOOR = 64.0;  // L*: the darkest a room's wash may be
const float ROOM_KNEE = 78.0;   // L*: rooms lighter than this keep their value

// `c` (sRGB values) lightened by `w` (0: kept .. 1: the room's light wash).
vec3 room_wash(vec3 c, float w) {
    vec3 lin = max(srgb_to_linear(c), vec3(1e-3));
    float y = dot(lin, vec3(0.2126, 0.7152, 0.0722));
    float l = 116.0 * lab_f(y) - 16.0;
    if (w <= 0.0 || l >= ROOM_KNEE) {
        return c;
    }
    float target = ROOM_FLOOR + (ROOM_KNEE - ROOM_FLOOR) * max(l, 0.0) / ROOM_KNEE;
    float k = log(lab_finv((target + 16.0) / 116.0)) / log(y);  // (0, 1): thinner pigment
    return mix(c, linear_to_srgb(pow(lin, vec3(k))), w);
}
