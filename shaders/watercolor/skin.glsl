// How much a CIELab colour looks like skin: soft bands of hue angle (degrees), chroma and
// lightness. Each band is (rise start, rise end, fall start, fall end): 0 outside, 1 inside.
// Every skin tone, from pale to dark, ruddy to olive, lies near hue 40-75 degrees with a
// chroma well below that of saturated oranges.
float skin_band(vec3 lab, vec4 hue, vec4 chroma, vec4 light) {
    float h = degrees(atan(lab.z, lab.y));
    float c = length(lab.yz);
    return smoothstep(hue.x, hue.y, h) * (1.0 - smoothstep(hue.z, hue.w, h))
         * smoothstep(chroma.x, chroma.y, c) * (1.0 - smoothstep(chroma.z, chroma.w, c))
         * smoothstep(light.x, light.y, lab.x) * (1.0 - smoothstep(light.z, light.w, lab.x));
}
