#version 330 core
// sRGB image -> CIELab (L 0..100), the space the abstraction filters in.
#include "common/color.glsl"
in vec2 v_uv;
out vec4 frag;
uniform sampler2D src;

void main() {
    frag = vec4(srgb_to_lab(texelFetch(src, ivec2(gl_FragCoord.xy), 0).rgb), 1.0);
}
