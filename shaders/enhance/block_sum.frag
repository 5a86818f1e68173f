#version 330 core
// First step of a mean colour: each texel of a small target sums one block of `src` (linear
// light; the count in alpha). The blocks tile the picture; a last pass adds them up.
#include "common/color.glsl"
uniform sampler2D src;
uniform vec2 u_resolution;  // the blocks across and down
out vec4 frag;

void main() {
    ivec2 size = textureSize(src, 0);
    ivec2 cells = ivec2(u_resolution);
    ivec2 block = (size + cells - 1) / cells;
    ivec2 lo = ivec2(gl_FragCoord.xy) * block;
    ivec2 hi = min(lo + block, size);
    vec4 sum = vec4(0.0);
    for (int y = lo.y; y < hi.y; ++y)
        for (int x = lo.x; x < hi.x; ++x)
            sum += vec4(srgb_to_linear(texelFetch(src, ivec2(x, y), 0).rgb), 1.0);
    frag = sum;
}
