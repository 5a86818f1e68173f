#version 330 core
// Paper margins: without a face (or round a scene whose figure is small in it: u_portrait
// below 1) the painting stops short of the sheet's borders in a ragged
// margin of bare paper, wider in some places than in others and at the corners (as a painter
// leaves the paper open at the edges), `u_margins` of it. Stored as the vignette is
// (vignette.frag): .x the edge's signed distance in units of its ramp, 0.5 + s / 4 (0.25 bare
// .. 0.75 painted), which the composite thresholds per output pixel; .y the grade. The
// margin lies on the frame, not on the paper sheet the canvas carries, and depends on
// nothing before this frame: a pan does not slide it along the borders, a video's margin
// stands still, and an export in chunks draws it as the whole export does. Its shape is the
// seed's and the picture's size's (another seed, another margin).
// tiles: reach 0
#include "common/noise.glsl"
out vec4 frag;
uniform vec2 u_picture;    // the whole picture's size, source px
uniform vec2 u_full_size;  // ... at full quality (a draft's frame's): the shape's seed
uniform vec2 u_origin;     // a tile's corner in the whole picture, source px (0 untiled)
uniform float u_target_scale;  // of the source size
uniform int u_seed;
uniform float u_margins;
uniform float u_portrait;        // 0..1: how much a figure found is the picture's subject
uniform float u_subject_weight;  // ... and how much it is shown (a video's fades)
#include "watercolor/borders.glsl"

const float MARGIN = 0.24;  // of the short side: the margin's reach at 1 (about half bare)
const float GRADE_EDGE = 0.8;  // of the wash's strength left at the margin's edge
const float SOFT = 0.03;    // half the edge's hard ramp (as vignette.frag's)

void main() {
    // a portrait's painting fades out round its figure instead (vignette.frag)
    if (u_margins <= 0.0 || u_portrait * u_subject_weight >= 1.0) {
        frag = vec4(1.0);
        return;
    }
    vec2 p = gl_FragCoord.xy / u_target_scale + u_origin;  // source px of the whole picture
    float short_side = content_short_side();
    vec2 d = to_borders(p) / short_side;  // to the nearest borders (a film's bars')
    // each size of picture its own shape (its sides hashed into the seed), the same at any
    // processing scale
    int seed = u_seed + int(mod(u_full_size.x * 31.0 + u_full_size.y * 17.0, 9973.0));
    float n = fbm(p / (0.12 * short_side), 3, seed, 511) - 0.5;
    float wide = value_noise(p / (0.5 * short_side), seed, 512);
    float m = u_margins * MARGIN * mix(0.3, 1.7, wide);
    // corners open further: the distances to both borders count
    float field = length(max(vec2(m) - d, 0.0)) / max(m, 1e-4);
    // found in places, lost (a wide ramp, which the composite feathers) in others
    float lost = SOFT * mix(1.0, 5.0, smoothstep(0.5, 0.8, value_noise(p / (0.25 * short_side),
                                                                      seed, 513)));
    float s = (0.55 - field + 0.5 * n) / lost;
    // a graded wash: lighter towards the margin (as the vignette's), not full strength to the cut
    float grade = mix(GRADE_EDGE, 1.0, smoothstep(0.55, 0.0, field + 0.3 * n));
    frag = vec4(clamp(0.5 + 0.25 * s, 0.0, 1.0), grade, 0.0, 1.0);
}
