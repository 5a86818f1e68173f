#version 330 core
// The paper finish (watercolor/paper_finish.glsl) enlarging the small painting as it goes,
// with the clamped bicubic of the upscale style's `bicubic` method (upscale/bicubic.glsl):
// one full-size pass instead of an enlargement and a finish.
#include "upscale/bicubic.glsl"
#include "watercolor/paper_finish.glsl"
out vec4 frag;
uniform sampler2D src;     // the painting, smaller than this target, sRGB values
uniform sampler2D paper;   // paper height at this size
uniform vec2 u_resolution;

void main() {
    vec3 lo, hi;
    vec3 c = clamp(bicubic(src, gl_FragCoord.xy, u_resolution, lo, hi), lo, hi);
    ivec2 p = ivec2(gl_FragCoord.xy);
    ivec2 lit = tooth_light(p, textureSize(paper, 0), u_px / u_scale);
    vec3 painted = paper_finish(c, texelFetch(paper, p, 0).r, texelFetch(paper, lit, 0).r);
    frag = vec4(dithered(painted, p, u_seed), 1.0);
}
