// Pigment darks: a painter mixes darks from pigments (an indigo with a burnt sienna), never
// from black, and lays them dense. The darkest tones deepen, and a neutral dark takes the
// hue of such a mix; a coloured dark keeps its own hue, denser. Needs pigment.glsl and
// color.glsl.
uniform float u_darks;

const vec3 DARK_MIX = vec3(0.18, 0.22, 0.41);  // sRGB of an indigo-sepia mix (Payne's grey)

vec3 pigment_darks(vec3 c) {
    float lum = luma(c);
    float dark = (1.0 - smoothstep(0.1, 0.4, lum)) * u_darks;
    if (dark <= 0.0) {
        return c;
    }
    float chroma = length(c - lum);
    vec3 mixed = DARK_MIX * (lum / luma(DARK_MIX));
    vec3 hued = mix(mixed, c, smoothstep(0.03, 0.12, chroma));
    return mix(c, pigment(hued, 1.0 + 0.8 * dark), dark);
}
