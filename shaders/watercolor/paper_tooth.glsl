// The paper's tooth: its height field lit from the top left, so the relief shows on bare
// paper and through the transparent washes alike. `h`: the height here, `lit`: the height
// tooth_step texels down and right, `ref`: source px per reference px. Shared by the
// composite and the draft's paper finish.
#include "watercolor/paper_grain.glsl"
uniform float u_paper_tooth;

const float TOOTH = 0.25;  // the relief's light per unit of height difference

// The texels between a height and its light: the grain's unit (paper_grain_px) rounded, so
// the relief keeps its contrast as the grain grows; tooth_gain makes up for rounding down.
int tooth_step(float ref) {
    return max(1, int(paper_grain_px(ref) + 0.5));
}

float tooth_gain(float ref) {
    return max(1.0, paper_grain_px(ref) / float(tooth_step(ref)));
}

// Where the tooth's light is read for the texel `p` of a paper of `size`.
ivec2 tooth_light(ivec2 p, ivec2 size, float ref) {
    return min(p + tooth_step(ref), size - 1);
}

// `shown`: how much of the relief shows here (1 the sheet's; less on a face's skin).
vec3 paper_tooth(vec3 c, float h, float lit, float ref, float shown) {
    return c * (1.0 + TOOTH * u_paper_tooth * (h - lit) * tooth_gain(ref) * shown);
}
