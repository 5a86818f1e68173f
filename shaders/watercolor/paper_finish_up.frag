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
    frag = vec4(paper_finish(c, texelFetch(paper, ivec2(gl_FragCoord.xy), 0).r), 1.0);
}
