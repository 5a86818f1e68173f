#version 330 core
// The paper's part of the composite, on a picture painted below full resolution and
// enlarged (draft): the grain's pigment density and MNPR's granulation from the paper's
// height at full resolution, then the paper colour. The painted picture came without them
// (the style's "draft" section turns them off), so the grain stays as fine as at scale 1.
#include "common/pigment.glsl"
out vec4 frag;
uniform sampler2D src;     // the enlarged painting, sRGB values, white paper
uniform sampler2D paper;   // paper height at this size
uniform float u_paper_grain;
uniform float u_granulation;
uniform vec3 u_paper_color;

void main() {
    ivec2 p = ivec2(gl_FragCoord.xy);
    vec3 c = texelFetch(src, p, 0).rgb;
    float h = texelFetch(paper, p, 0).r;
    c = pigment(c, density(1.0 - h, u_paper_grain));
    if (u_granulation > 0.0) {
        c = pow(c, vec3(1.0 + 5.0 * u_granulation * (1.0 - (0.8 + 0.2 * h))));
    }
    frag = vec4(c * u_paper_color, 1.0);
}
