// The paper's part of the watercolor's composite, for a picture painted below full
// resolution and enlarged (draft): the grain's pigment density and MNPR's granulation from
// the paper's height at full resolution, its tooth, then the paper colour. The painted picture came
// without them (the style's "draft" section turns them off), so the grain stays as fine as
// at scale 1.
#include "common/pigment.glsl"
#include "watercolor/paper_tooth.glsl"
#include "common/noise.glsl"
#include "watercolor/dither.glsl"
uniform int u_seed;
uniform float u_paper_grain;
uniform float u_granulation;
uniform vec3 u_paper_color;
uniform float u_px;     // work px per reference px
uniform float u_scale;  // work px per source px (the paper's)

vec3 paper_finish(vec3 c, float h, float lit) {
    c = pigment(c, density(1.0 - h, u_paper_grain));
    if (u_granulation > 0.0) {
        c = pow(c, vec3(1.0 + 5.0 * u_granulation * (1.0 - (0.8 + 0.2 * h))));
    }
    return paper_tooth(c, h, lit, u_px / u_scale, 1.0) * u_paper_color;
}
