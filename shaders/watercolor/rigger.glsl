// The rigger's lines drawn (rigger.frag found them): thin darks laid last over the washes as
// a glaze of the photo's own line colour (its transmittance against its sides, so a rusty
// lattice on a blue sky is a warm dark, and pigment_darks, after this, keeps it off black),
// thinner where the dry rigger skips the paper's valleys, broken in a few long gaps (one pulled
// stroke, then a lift: 14 px breaks read as dashes, judged); and the tiny lights (stars,
// glints) left as paper, tinted by their colour, as small round dots (a photo's 1 px point,
// a pixel, read as a digital speck). Needs noise.glsl and the caller's u_seed.
uniform float u_rigger;

const vec2 RIGGER_TOOTH = vec2(0.33, 0.45);  // paper height: the valleys a dry rigger skips
const float RIGGER_VALLEYS = 0.65;          // of the line the valleys still take
const float RIGGER_GAPS = 40.0;              // reference px: a stroke's and a gap's length
const float RIGGER_LIGHT = 0.5;              // of the paper a light keeps (the rest its colour)

// rigger.frag's output at `uv` with its lights spread to a round dot of about 3 texels: the
// lights' strength the most of theirs and their neighbours' (less off the centre). `t`: one
// texel of it, from a picture of its size (asking `m` its size would keep a picture-sized
// texture for it when the rigger is off, where a 1x1 one reads the same: 66 MB at 4K).
vec4 rigger_round(sampler2D m, vec2 uv, vec2 t) {
    vec4 v = texture(m, uv);
    float lit = max(-v.a, 0.0);
    for (int i = 0; i < 8; ++i) {
        vec2 o = vec2(i < 4 ? (i == 0 ? 1.0 : i == 1 ? -1.0 : 0.0) : (i % 2 == 0 ? 1.0 : -1.0),
                      i < 4 ? (i == 2 ? 1.0 : i == 3 ? -1.0 : 0.0) : (i < 6 ? 1.0 : -1.0));
        float w = i < 4 ? 0.7 : 0.4;
        lit = max(lit, w * max(-texture(m, uv + o * t).a, 0.0));
    }
    return lit > max(v.a, 0.0) ? vec4(1.0, 1.0, 1.0, -lit) : v;
}

// `lines`: rigger.frag's output here; `h`: the paper's height; `p`: source px of the whole
// picture; `ref`: source px per reference px; `photo`: the picture's colour here; `kept`: how
// much of the painting is kept here (none on the bare margins round it).
vec3 rigged(vec3 c, vec4 lines, float h, vec2 p, float ref, vec3 photo, float kept) {
    lines.a *= u_rigger * kept;
    if (lines.a > 0.0) {
        float drawn = mix(RIGGER_VALLEYS, 1.0, smoothstep(RIGGER_TOOTH.x, RIGGER_TOOTH.y, h))
                      * smoothstep(0.2, 0.3, value_noise(p / (RIGGER_GAPS * ref), u_seed, 811));
        return c * mix(vec3(1.0), lines.rgb, min(1.0, lines.a) * drawn);
    }
    vec3 light = mix(photo, vec3(1.0), RIGGER_LIGHT);
    return mix(c, max(c, light), min(1.0, -lines.a));
}
