#version 330 core
// Shapes merged by colour: each seed takes the mean of its own and its neighbours' washes
// (their graded lightness carried to its centre), weighted by how alike they are, so
// neighbours of one colour become one shape and different ones keep their border.
// tiles: reach 0
#include "watercolor/shapes.glsl"
out vec4 frag;
uniform sampler2D lab;     // Lab on the shape grid (its size)
uniform sampler2D seeds;   // (merged) seeds
uniform sampler2D planes;  // slopes
const float ALIKE = 6.0;   // Lab units

void main() {
    ivec2 cell = ivec2(gl_FragCoord.xy);
    ivec2 cells = textureSize(seeds, 0);
    vec4 own = texelFetch(seeds, cell, 0);
    vec2 s = cell_size(lab, seeds);
    vec2 at = unpack_xy(own.w, cell, s);
    vec3 sum = vec3(0.0);
    float wsum = 0.0;
    for (int j = -1; j <= 1; j++) {
        for (int i = -1; i <= 1; i++) {
            ivec2 k = cell + ivec2(i, j);
            if (any(lessThan(k, ivec2(0))) || any(greaterThanEqual(k, cells))) continue;
            vec4 o = texelFetch(seeds, k, 0);
            vec2 g = texelFetch(planes, k, 0).xy;
            vec3 c = o.xyz + vec3(dot(g, at - unpack_xy(o.w, k, s)), 0.0, 0.0);
            vec3 d = (c - own.xyz) / ALIKE;
            float w = exp(-0.5 * dot(d, d));
            sum += w * c;
            wsum += w;
        }
    }
    frag = vec4(sum / wsum, own.w);
}
