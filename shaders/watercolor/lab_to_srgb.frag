#version 330 core
// CIELab -> sRGB values in [0,1] (sampled by position: the source may be larger, e.g. tones
// quantized at full quality in a draft that lays its washes smaller).
#include "common/color.glsl"
out vec4 frag;
uniform sampler2D src;
uniform vec2 u_resolution;

void main() {
    frag = vec4(lab_to_srgb(texture(src, gl_FragCoord.xy / u_resolution).xyz), 1.0);
}
