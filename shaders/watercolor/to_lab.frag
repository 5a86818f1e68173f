#version 330 core
// sRGB image -> CIELab (L 0..100), the space the abstraction filters in. The target may be
// smaller than the image (washes are abstracted at half the work size): one bilinear tap at
// the centre of the output texel averages the 2x2 block it covers.
// tiles: reach 0
#include "common/color.glsl"
out vec4 frag;
uniform sampler2D src;
uniform vec2 u_resolution;

void main() {
    frag = vec4(srgb_to_lab(texture(src, gl_FragCoord.xy / u_resolution).rgb), 1.0);
}
