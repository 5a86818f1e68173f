// A painter's palette on the wash tones: each hue drawn towards the nearest of a dozen
// pigments' (a limited palette's harmony: the photo's in-between hues, a camera's casts, go)
// and the colour temperature of the form: shadows cooler and lights warmer than what is
// around them (the ultramarine of a shadow glaze, the warm light of the sun). Greys stay
// grey, and skin keeps most of its hue. Lab a*b*, hues in degrees.
uniform float u_palette;      // 0..1: how far a hue goes to its pigment's
uniform float u_temperature;  // 0..1: how much cooler the shadows, warmer the lights
// (u_wash_size, tones.glsl: 0 no wide wash, its surroundings would be the tone itself)

// CIELAB hue angles of the palette: lemon and cadmium yellow, yellow ochre, cadmium orange,
// burnt sienna, cadmium red, alizarin, quinacridone magenta, ultramarine, cerulean,
// viridian, sap green
const int PIGMENTS = 11;
const float PIGMENT_HUES[PIGMENTS] = float[PIGMENTS](95.0, 75.0, 60.0, 50.0, 38.0, 5.0,
                                                     335.0, 290.0, 245.0, 175.0, 120.0);
const vec2 COOL = vec2(1.5, -7.0);  // a*b* a shadow a full step darker moves by
const vec2 WARM = vec2(0.5, 4.0);   // ... and a light a full step lighter
const float STEP = 20.0;            // L* below or above its surroundings: a full step

// `ab` with its hue drawn `k` (> 0, on a colour: atan(0, 0) is undefined) of the way to
// its nearest pigment's.
vec2 pigment_hue(vec2 ab, float k) {
    float c = length(ab);
    float h = degrees(atan(ab.y, ab.x));
    float best = 360.0;
    for (int i = 0; i < PIGMENTS; i++) {
        float d = mod(h - PIGMENT_HUES[i] + 540.0, 360.0) - 180.0;
        best = abs(d) < abs(best) ? d : best;
    }
    float to = radians(h - best * k);
    return c * vec2(cos(to), sin(to));
}

// The tone `lab` (Lab) in the palette: `around` is the L* of its surroundings (the wide
// wash), `skin` 0..1 how much it is a face's skin. Bare paper (L* 100: the highlights left
// bare) takes no colour.
vec3 palette_tone(vec3 lab, float around, float skin) {
    vec2 ab = lab.yz;
    float k = u_palette * smoothstep(4.0, 12.0, length(ab)) * (1.0 - 0.7 * skin);
    if (k > 0.0) {
        ab = pigment_hue(ab, k);
    }
    if (u_temperature > 0.0 && u_wash_size > 0.0) {
        float t = clamp((lab.x - around) / STEP, -1.0, 1.0);
        float pigment = 1.0 - smoothstep(98.0, 100.0, lab.x);
        ab += u_temperature * pigment * (t < 0.0 ? -t * COOL : t * WARM);
    }
    return vec3(lab.x, ab);
}
