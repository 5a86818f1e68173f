// The background round a figure carries its own wide wash up to the figure's outline (trial
// F11, finding 8). The wide wash (`coarse`: the abstraction blurred over the wash size)
// mixes whatever lies within its reach: beside a head on a flat blue backdrop it took the
// ear's and the cheek's pink, and the background's tones, which follow it away from the
// subject, turned lavender in a band a wash wide round the head (a* +8..15 over the blue's;
// the palette drew it to ultramarine and the blue beside it to cerulean: a violet halo).
// A painter carries the background wash right up to the ear. So beside the figure the
// background takes `ground`: the same blur of the background alone (the abstraction weighted
// by how much it is not figure, ground.frag, divided by the blurred weight); where nothing
// of the figure lies within the blur's reach the wide wash is kept as it was. The figure
// keeps the wide wash (a face's form, its glazes and shine are judged against it).
const vec2 GROUND_FIGURE = vec2(0.02, 0.25);  // the figure map: background .. not counted
const vec2 GROUND_SURE = vec2(0.01, 0.05);    // the blurred weight: too little .. enough
const vec2 GROUND_HERE = vec2(0.25, 0.6);     // the figure here: ground .. the wide wash
const float GROUND_WHOLE = 0.9999;            // the blurred weight: no figure in reach

// How much a texel counts in the ground's blur, from the figure map there.
float ground_weight(float figure) {
    return 1.0 - smoothstep(GROUND_FIGURE.x, GROUND_FIGURE.y, figure);
}

// The wide wash a texel's tones follow: `coarse` (the wide wash), or beside the figure
// (`figure`: the figure map here) the background's own, `ground` (ground.frag blurred:
// premultiplied Lab, .w the weight). Bitwise `coarse` where no figure is within reach.
vec3 ground_wash(vec3 coarse, vec4 ground, float figure) {
    if (ground.w >= GROUND_WHOLE) {
        return coarse;
    }
    float k = smoothstep(GROUND_SURE.x, GROUND_SURE.y, ground.w)
              * (1.0 - smoothstep(GROUND_HERE.x, GROUND_HERE.y, figure));
    return k > 0.0 ? mix(coarse, ground.xyz / ground.w, k) : coarse;
}
