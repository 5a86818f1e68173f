// The paper's tooth: its height field lit from the top left, so the relief shows on bare
// paper and through the transparent washes alike. `h`: the height here, `lit`: one texel
// down and right. Shared by the composite and the draft's paper finish.
uniform float u_paper_tooth;

const float TOOTH = 0.25;  // the relief's light per unit of height difference

vec3 paper_tooth(vec3 c, float h, float lit) {
    return c * (1.0 + TOOTH * u_paper_tooth * (h - lit));
}
