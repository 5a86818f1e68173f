// Pigment darks: a painter mixes darks from pigments (an indigo with a burnt sienna), never
// from black, and lays them dense. The darkest tones deepen, and a near-neutral dark takes
// the hue of such a mix: a clearly cool one (a navy coat) Payne's grey's, a barely cool one
// (a camera's black: a black dress, a grey-black jacket) a neutral tint's, a neutral or warm
// one (black hair, a black suit) an umber's (blind pairs: Payne's grey for every black read as
// "a blue bathing cap"; Payne's grey from the first hint of blue made black hair, dresses and
// greyscale photos navy: judged 14-6 against), held near grey (NEUTRAL_TINT: warm or cool,
// not chestnut or navy); a coloured dark keeps its own hue, denser.
// Needs pigment.glsl and color.glsl.
uniform float u_darks;

const vec3 DARK_MIX = vec3(0.18, 0.22, 0.41);  // sRGB of an indigo-sepia mix (Payne's grey)
// a neutral or warm dark's mix: burnt umber with a little ultramarine (a brown's shadow,
// dark hair, black cloth), so a black is not turned navy
const vec3 DARK_WARM = vec3(0.34, 0.22, 0.16);
const vec3 DARK_NEUTRAL = vec3(0.24, 0.23, 0.26);  // a barely cool dark's mix: neutral tint
// sRGB red minus blue (before the paper's tint) where the mix is Payne's grey, neutral tint,
// the umber mix; in between they blend
const vec3 WARMTH = vec3(-0.07, -0.025, -0.005);
const float LIFT = 1.6;
const float DARKEST = 0.17;  // the darkest masstone: black eases to luma 0.15 (L* 14 on cream paper)
// A near-neutral dark (a black, below chroma 0.03) takes its mix's hue at most this far from
// grey (sRGB, relative to its luma): a painter's black mixed from ultramarine and a sienna is
// warm or cool but hardly coloured. At the mixes' own chroma black hair came out chestnut
// (L* 7, C* 1.3 -> 15, 10.5) and a black polo navy (C* 5 -> 12, the hint of blue the washes'
// saturation gave it taken for a navy's); now C* 3-5 (trial F7, finding 5). A coloured dark
// (chroma 0.12 up) takes the whole mix, as before.
const float NEUTRAL_TINT = 0.15;
// A face's darkest accents (pupils, lash lines, nostrils, a mouth's corner, a side-lit face's
// shadow side) are laid deeper: a portrait painter glazes them again and again, and keeps the
// darkest dark within a few L* of the photo's. Eased above DARKEST as the rest of the sheet,
// a low-key face's darks were lifted to L* 12-14 from 2-8 and its shadow side greyed: the
// face's value range (L* P95-P5 in its box) 83-88% of the photo's on 11 of 24 faces (trial
// F8, finding 10). FACE_DARKEST eases black to about L* 6 on cream paper.
const float FACE_DARKEST = 0.10;

// `darkest`: the masstone eased above (luma; DARKEST for the sheet, FACE_DARKEST on a face).
vec3 pigment_darks(vec3 c, float darkest) {
    float lum = luma(c);
    float dark = (1.0 - smoothstep(0.1, 0.4, lum)) * u_darks;
    if (dark <= 0.0) {
        return c;
    }
    float chroma = length(c - lum);
    float warmth = c.r - c.b;
    vec3 neutral = mix(DARK_NEUTRAL, DARK_WARM, smoothstep(WARMTH.y, WARMTH.z, warmth));
    vec3 dark_mix = mix(DARK_MIX, neutral, smoothstep(WARMTH.x, WARMTH.y, warmth));
    float own = smoothstep(0.03, 0.12, chroma);  // how much a dark keeps its own hue
    // the mix at unit luma, its hue as an offset from grey: a near-neutral dark's held close
    vec3 tint = dark_mix / luma(dark_mix) - 1.0;
    tint *= mix(min(1.0, NEUTRAL_TINT / length(tint)), 1.0, own);
    vec3 indigo = 1.0 + tint;
    vec3 mixed = indigo * lum;
    vec3 hued = mix(mixed, c, own);
    vec3 deep = mix(c, pigment(hued, 1.0 + 0.8 * dark), dark);
    // no mix of pigments is darker than a watercolour's darkest masstone: the darkest tones
    // are eased above it (l + F (exp(-l / F) - exp(-0.4 / F)): rising, about F at black, l
    // from 0.4 up, where the darks end), lifted as thinner pigment (its hue kept, at most
    // LIFT times as light: a navy scaled further turned electric blue), the rest as the
    // indigo-sepia mix (a neutral black then keeps the hue of a mixed dark, held near grey)
    float l = luma(deep);
    float eased = l + darkest * max(exp(-l / darkest) - exp(-0.4 / darkest), 0.0);
    float target = l + u_darks * (eased - l);
    float thinned = min(target, LIFT * l);
    vec3 hue = l > 1e-3 ? deep / l : indigo;
    return clamp(hue * thinned + indigo * (target - thinned), 0.0, 1.0);
}

// Thinned paint: the paper shows through a wash, lifting it towards white by `dilution`, but
// hardly in the darks and less in the middle tones, which a painter lays with dense pigment
// (by `darks`). Lifted alike, a black coat became a grey fog at L* 40 and a beard vanished
// from a face; protected to the middle tones only (luma 0.6), a dark table at L* 31 came out
// at 43 and the picture's value pattern washed out (blind pairs: now to luma 0.9).
vec3 diluted_by(vec3 c, float dilution, float darks) {
    float dense = darks * (1.0 - smoothstep(0.2, 0.9, luma(c)));
    return 1.0 - (1.0 - c) * (1.0 - dilution * (1.0 - dense));
}

vec3 diluted(vec3 c, float dilution) {
    return diluted_by(c, dilution, u_darks);
}

// A person's skin under a pale look's dilution (pale_wash 0.65, with weak darks): the lift
// took every complexion to the same pale beige (skin L* 42 -> 71, 35 -> 70, while 82 -> 88).
// A painter thinning every wash still lays a dark complexion as the darkest large shape, in
// its order and most of its contrast: a dark complexion is thinned at most as SKIN_DILUTION
// thins it at the default darks (soft_wash's; its skin was judged to keep its likeness), a
// pale one (L* 75 up, SKIN_COMPLEXION) takes the whole dilution, as light as before; in
// between they blend. The complexion (`complexion`, L 0..1) is the skin round here (the
// photo's wide blur; composite.frag: or the texel's own where lighter), not the texel's own
// alone: a face's features are thinned as its skin is (by their own, a pale face's eyes stayed
// dense while its skin was lifted: staring eyes). A dilution of SKIN_DILUTION or less (the
// default, soft_wash) is untouched. `skin`: skin.glsl's person_skin (0 elsewhere: hair,
// clothes and the background take the whole dilution).
const float SKIN_DILUTION = 0.35;
const float SKIN_DARKS = 0.8;  // the default darks
// the complexion's L (0..1) from which it is thinned more, and wholly (from L* 75: a mid
// complexion's features kept the default look's contrast, darker than the photo's)
const vec2 SKIN_COMPLEXION = vec2(0.45, 0.75);

vec3 diluted_skin(vec3 c, float dilution, float skin, float complexion) {
    vec3 lifted = diluted(c, dilution);
    if (dilution <= SKIN_DILUTION || skin <= 0.0) {
        return lifted;
    }
    vec3 kept = diluted_by(c, SKIN_DILUTION, SKIN_DARKS);
    float dark = skin * (1.0 - smoothstep(SKIN_COMPLEXION.x, SKIN_COMPLEXION.y, complexion));
    return lifted - dark * max(lifted - kept, 0.0);
}
