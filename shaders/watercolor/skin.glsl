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

// How much a colour is a skin tone, pale to dark (the bands above).
float skin_tone(vec3 lab) {
    return skin_band(lab, vec4(22.0, 34.0, 74.0, 86.0), vec4(3.0, 7.0, 36.0, 48.0),
                     vec4(12.0, 25.0, 93.0, 99.0));
}

// How much a texel of colour `lab` is a found person's skin, from the focus (focus.frag: .z the
// face, .w the figure): the face whole (its brows, lips and eyes keep their values against its
// skin) and beyond it the figure's skin-coloured parts (neck, arms, hands); hair, clothes and
// the background are not. The key (key.glsl) and the dilution (darks.glsl) lift it less.
float person_skin(vec3 lab, vec4 focus) {
    return max(focus.z, focus.w * skin_tone(lab));
}
