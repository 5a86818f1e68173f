// Granulation (MNPR: C^(1 + D a (1 - h'))): pigment settling in the paper's valleys, by
// pigment. The coarse pigments granulate (ultramarine and cobalt blues, the earths: siennas
// and umbers, warm and not light), the fine staining ones (the bright yellows, reds and
// greens) hardly; a face's skin not at all (a portraitist keeps flesh smooth). Needs
// color.glsl.
uniform float u_granulation;

const float FINE_PIGMENT = 0.3;  // how much a fine pigment granulates, of a coarse one's

// How coarse the pigment of sRGB colour `c` is (FINE_PIGMENT .. 1).
float coarse_pigment(vec3 c) {
    float blue = smoothstep(0.0, 0.15, c.b - 0.5 * (c.r + c.g));
    float earth = smoothstep(0.05, 0.2, c.r - c.b) * (1.0 - smoothstep(0.45, 0.7, luma(c)));
    return mix(FINE_PIGMENT, 1.0, max(blue, earth));
}

// `h`: the paper's height here; `skin`: how much this is a face's skin (0..1).
vec3 granulated(vec3 c, float h, float skin) {
    float a = u_granulation * coarse_pigment(c) * (1.0 - skin);
    return pow(c, vec3(1.0 + 5.0 * a * (1.0 - (0.8 + 0.2 * h))));
}
