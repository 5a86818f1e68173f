#version 330 core
// Stereo matching, step 2: the 5 x 5 census transform of a view's grey: bit i is set when
// the i-th neighbour (row by row, the centre left out: 24 bits) is darker than the centre.
// Replicated borders. The string is stored as a whole number below 2^24: exact in r32f.
#include "stereo/match.glsl"
out vec4 frag;
uniform sampler2D view;  // .a = grey

void main() {
    ivec2 p = ivec2(gl_FragCoord.xy);
    ivec2 lim = textureSize(view, 0) - 1;
    float centre = texelFetch(view, p, 0).a;
    uint bits = 0u;
    uint bit = 1u;
    for (int dy = -2; dy <= 2; dy++) {
        for (int dx = -2; dx <= 2; dx++) {
            if (dx != 0 || dy != 0) {
                float g = texelFetch(view, clamp(p + ivec2(dx, dy), ivec2(0), lim), 0).a;
                if (g < centre) bits |= bit;
                bit <<= 1u;
            }
        }
    }
    frag = vec4(float(bits), 0.0, 0.0, 1.0);
}
