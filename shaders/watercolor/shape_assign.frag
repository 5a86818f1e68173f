#version 330 core
// Shapes, assignment: each texel of the shape grid to the nearest seed (shapes.glsl) of the
// 4x4 cells around it; .xy the seed's cell.
// tiles: reach 0
#include "watercolor/shapes.glsl"
out vec4 frag;
uniform sampler2D lab;    // Lab on the shape grid
uniform sampler2D seeds;

void main() {
    ivec2 t = ivec2(gl_FragCoord.xy);
    vec2 s = cell_size(lab, seeds);
    ivec2 cells = textureSize(seeds, 0);
    vec3 c = texelFetch(lab, t, 0).xyz;
    vec2 x = gl_FragCoord.xy;
    ivec2 first = first_cell(x, s, cells);
    float best = 1e30;
    ivec2 pick = first;
    for (int j = 0; j < 4; j++) {
        for (int i = 0; i < 4; i++) {
            ivec2 k = first + ivec2(i, j);
            if (any(greaterThanEqual(k, cells))) continue;
            float d = seed_distance(c, x, texelFetch(seeds, k, 0), k, s);
            if (d < best) {
                best = d;
                pick = k;
            }
        }
    }
    frag = vec4(vec2(pick), 0.0, 1.0);
}
