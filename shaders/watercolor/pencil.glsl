// A pencil underdrawing (issue 29): the picture's lines (the flow-based XDoG, `edges`) laid
// in graphite under the washes: grey, under half opacity, broken by gaps, a little off the
// washes as a drawing made first is. Only the outlines of the XDoG's ink: its fills would be
// shading, which a pencil underdrawing leaves to the washes. Multiplies (graphite darkens
// what lies over it). Needs noise.glsl and the caller's u_seed.
uniform float u_pencil;

const vec3 GRAPHITE = vec3(0.40, 0.40, 0.43);  // of the paper's reflectance, where fully drawn
const float PENCIL_OPACITY = 0.35;
const vec2 PENCIL_SHIFT = vec2(1.2, -0.9);    // reference px: the drawing sits off the washes
const float PENCIL_GAPS = 18.0;               // reference px: a stroke's and a gap's length
const float PENCIL_REACH = 1.5;               // reference px: how far off a line's sides are

// `p`: source px of the whole picture; `ref`: output px per reference px; `size`: the
// output's size; `subject`: the focus here (the drawing is of the subject: traced round the
// background's blobs and letters, lines read as an edge filter).
vec3 pencilled(vec3 c, sampler2D edges, vec2 uv, vec2 p, float ref, vec2 size,
               float subject) {
    // the outline of the XDoG's ink, not its fills: how much lighter it is a little way off
    vec2 q = uv + PENCIL_SHIFT * ref / size;
    vec2 o = PENCIL_REACH * max(1.0, ref) / size;
    float here = texture(edges, q).r;
    float around = max(max(texture(edges, q + vec2(o.x, 0.0)).r,
                           texture(edges, q - vec2(o.x, 0.0)).r),
                       max(texture(edges, q + vec2(0.0, o.y)).r,
                           texture(edges, q - vec2(0.0, o.y)).r));
    float line = clamp(around - here, 0.0, 1.0);  // 1 on a line
    float drawn = smoothstep(0.3, 0.45, value_noise(p / (PENCIL_GAPS * ref), u_seed, 801));
    float a = u_pencil * PENCIL_OPACITY * line * drawn * smoothstep(0.35, 0.7, subject);
    return c * mix(vec3(1.0), GRAPHITE, a);
}
