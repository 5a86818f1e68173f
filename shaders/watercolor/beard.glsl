// A beard laid as hair (trial F8, finding 2): in its own tone and colour, with its hairs drawn
// over it as a dry brush would, graded into the skin round it; not smoothed into the face's
// clean-shaven flesh (its form half the wide blur, at half the work size) nor, past the
// face's oval, laid as the figure's clothes (70 % their shapes, crisp tones, boosted chroma:
// maroon stains under a red beard, a grey one's cool shadow a smooth blue-black bruise).
// Where: the beard map (beard.frag), off the features (their own accents draw the
// moustache's darks at the mouth). Needs color.glsl and the caller's u_subject.

// How much a texel is beard (0 without a subject: the map is not drawn). `focus`: the focus
// map (.y the features).
float beard_here(sampler2D beard, vec2 uv, vec4 focus) {
    if (u_subject == 0) {
        return 0.0;
    }
    return texture(beard, uv).x * (1.0 - smoothstep(0.1, 0.4, focus.y));
}

// The beard's hairs drawn over its wash at the output's size (the washes, laid at half the
// work size, keep a third of their texture): the photo's own hairs, their lightness against
// their surround (a ring BEARD_RING work px round), as a glaze over the wash, HAIRS of their
// contrast, more on the paper's tooth (a dry brush's stroke catches the peaks) than in its
// valleys. In the wash's colour (its hue is the beard's own, quantize.frag): each pixel's own
// colour drew an autochrome's or a sensor's coloured grain as confetti. `photo`: the picture
// (work size, sRGB values) at `uv`; `h`: the paper's height (0..1); `beard`: beard_here's.
const float BEARD_RING = 2.5;  // work px: the hairs' surround (stubble's dots are 1-3 px)
const float HAIRS = 0.8;       // of the photo's hair texture drawn
const vec2 HAIRS_TOOTH = vec2(0.7, 1.0);  // of it in the paper's valleys .. on its peaks
vec3 beard_hairs(vec3 c, sampler2D photo, vec2 uv, float beard, float h) {
    vec2 px = BEARD_RING / vec2(textureSize(photo, 0));
    float ring = 0.0;
    for (int i = 0; i < 8; ++i) {
        float a = 0.785398 * float(i);
        ring += luma(texture(photo, uv + vec2(cos(a), sin(a)) * px).rgb);
    }
    float hairs = clamp(luma(texture(photo, uv).rgb) / max(ring / 8.0, 0.02), 0.25, 2.0);
    float k = HAIRS * beard * mix(HAIRS_TOOTH.x, HAIRS_TOOTH.y, smoothstep(0.3, 0.7, h));
    return clamp(c * mix(1.0, hairs, k), 0.0, 1.0);
}

// A beard's colour: its own hue, at no more than its own chroma (`own`: the abstraction's
// colour; `bearded`: beard_here's). The washes' saturation boosted a red beard into maroon
// stains and a grey one's skin between the hairs into a warm flush; a painter mixes a beard's
// own colour, the skin's is held at the photo's (tones.glsl chroma_gain) and so is its hair.
vec3 beard_colour(vec3 tone, vec3 own, float bearded) {
    float c = length(own.yz);
    if (bearded <= 0.0 || c < 1e-3) {
        return tone;
    }
    vec2 ab = own.yz * (min(length(tone.yz), c) / c);
    return vec3(tone.x, mix(tone.yz, ab, bearded));
}
