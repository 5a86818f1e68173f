// A face's lines drawn (face_lines.frag found them): the lines of age laid last over the
// flesh wash with a thin dry stroke, as a glaze of the line's own colour (its transmittance
// against its sides), thinner where the dry brush skips the paper's valleys and broken in a
// few long gaps (a pulled stroke, then a lift), at most as deep against the wash as the
// photo's line against its sides (a painter's dry stroke is light: stated deeper, at ^1.6,
// it drew a glasses' bridge black and a chin's crease as a crack). Needs noise.glsl,
// color.glsl and the caller's u_seed.
const float FACE_LINES = 1.0;  // the line's depth in the photo: its glaze to this power
// of the line's own hue against its sides' (a crease's red, stated deeper, drew scratches;
// the rest its depth alone: a shadow of the wash's own colour)
const float FACE_LINE_HUE = 0.35;
const vec2 FACE_LINE_TOOTH = vec2(0.33, 0.45);  // paper height: the valleys a dry stroke skips
const float FACE_LINE_VALLEYS = 0.6;       // of the line the valleys still take
const float FACE_LINE_GAPS = 30.0;         // reference px: a stroke's and a gap's length

// face_lines.frag's output at `uv`, its lines a brush's width (about 2 texels, the photo's
// are often one): the strongest of its own and its 4 neighbours' (FACE_LINE_SPREAD of
// theirs). `t`: one texel of it.
const float FACE_LINE_SPREAD = 0.7;
vec4 face_lines_wide(sampler2D m, vec2 uv, vec2 t) {
    vec4 v = texture(m, uv);
    for (int i = 0; i < 4; ++i) {
        vec2 o = i < 2 ? vec2(i == 0 ? t.x : -t.x, 0.0) : vec2(0.0, i == 2 ? t.y : -t.y);
        vec4 u = texture(m, uv + o);
        if (FACE_LINE_SPREAD * u.a > v.a) {
            v = vec4(u.rgb, FACE_LINE_SPREAD * u.a);
        }
    }
    return v;
}

// `lines`: face_lines_wide's here; `h`: the paper's height; `p`: source px of the
// whole picture; `ref`: source px per reference px; `kept`: how much of the painting is kept
// here (none on bare paper).
vec3 face_lined(vec3 c, vec4 lines, float h, vec2 p, float ref, float kept) {
    float a = lines.a * kept;
    if (a <= 0.0) {
        return c;
    }
    float drawn = mix(FACE_LINE_VALLEYS, 1.0, smoothstep(FACE_LINE_TOOTH.x, FACE_LINE_TOOTH.y, h))
                  * smoothstep(0.05, 0.2, value_noise(p / (FACE_LINE_GAPS * ref), u_seed, 813));
    vec3 glaze = pow(max(mix(vec3(luma(lines.rgb)), lines.rgb, FACE_LINE_HUE), vec3(1e-3)),
                     vec3(FACE_LINES));
    return c * mix(vec3(1.0), glaze, min(1.0, a) * drawn);
}
