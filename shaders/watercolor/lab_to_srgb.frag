#version 330 core
// CIELab -> sRGB values in [0,1] (the source at this target's size).
// tiles: reach 0
#include "common/color.glsl"
out vec4 frag;
uniform sampler2D src;

void main() {
    frag = vec4(lab_to_srgb(texelFetch(src, ivec2(gl_FragCoord.xy), 0).xyz), 1.0);
}
