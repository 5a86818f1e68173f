#version 330 core
// The paper finish (watercolor/paper_finish.glsl) on a picture already at full size.
#include "watercolor/paper_finish.glsl"
out vec4 frag;
uniform sampler2D src;     // the enlarged painting, sRGB values, white paper
uniform sampler2D paper;   // paper height at this size

void main() {
    ivec2 p = ivec2(gl_FragCoord.xy);
    ivec2 lit = tooth_light(p, textureSize(paper, 0), u_px / u_scale);
    frag = vec4(dithered(paper_finish(texelFetch(src, p, 0).rgb, texelFetch(paper, p, 0).r,
                                      texelFetch(paper, lit, 0).r), p, u_seed), 1.0);
}
