// The rigger's lines drawn (rigger.frag found them): thin darks laid last over the washes as
// a glaze of the photo's own line colour (its transmittance against its sides, so a rusty
// lattice on a blue sky is a warm dark, and pigment_darks, after this, keeps it off black),
// thinner where the dry rigger skips the paper's valleys, broken and in a few longer gaps; and the tiny
// lights (stars, glints) left as paper, tinted by their colour. Needs noise.glsl and the
// caller's u_seed.
uniform float u_rigger;

const vec2 RIGGER_TOOTH = vec2(0.33, 0.45);  // paper height: the valleys a dry rigger skips
const float RIGGER_VALLEYS = 0.4;           // of the line the valleys still take
const float RIGGER_GAPS = 14.0;              // reference px: a stroke's and a gap's length
const float RIGGER_LIGHT = 0.5;              // of the paper a light keeps (the rest its colour)

// `lines`: rigger.frag's output here; `h`: the paper's height; `p`: source px of the whole
// picture; `ref`: source px per reference px; `photo`: the picture's colour here; `kept`: how
// much of the painting is kept here (none on the bare margins round it).
vec3 rigged(vec3 c, vec4 lines, float h, vec2 p, float ref, vec3 photo, float kept) {
    lines.a *= u_rigger * kept;
    if (lines.a > 0.0) {
        float drawn = mix(RIGGER_VALLEYS, 1.0, smoothstep(RIGGER_TOOTH.x, RIGGER_TOOTH.y, h))
                      * smoothstep(0.25, 0.35, value_noise(p / (RIGGER_GAPS * ref), u_seed, 811));
        return c * mix(vec3(1.0), lines.rgb, min(1.0, lines.a) * drawn);
    }
    vec3 light = mix(photo, vec3(1.0), RIGGER_LIGHT);
    return mix(c, max(c, light), min(1.0, -lines.a));
}
