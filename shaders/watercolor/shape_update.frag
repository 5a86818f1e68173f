#version 330 core
// Shapes, update: each seed moves to the mean colour and position of the texels assigned to
// it (all within 1.5 cells of its own: shapes.glsl), kept near its cell.
// tiles: reach 0
#include "watercolor/shapes.glsl"
out vec4 frag;
uniform sampler2D lab;     // Lab on the shape grid
uniform sampler2D labels;  // each texel's seed (cell)
uniform sampler2D seeds;

void main() {
    ivec2 cell = ivec2(gl_FragCoord.xy);
    ivec2 size = textureSize(lab, 0);
    vec2 s = cell_size(lab, seeds);
    ivec2 lo, hi;
    claimed(cell, s, size, textureSize(seeds, 0), lo, hi);
    vec3 sum = vec3(0.0);
    vec2 at = vec2(0.0);
    float n = 0.0;
    for (int y = lo.y; y < hi.y; y++) {
        for (int x = lo.x; x < hi.x; x++) {
            ivec2 t = ivec2(x, y);
            if (ivec2(texelFetch(labels, t, 0).xy + 0.5) != cell) continue;
            sum += texelFetch(lab, t, 0).xyz;
            at += vec2(t) + 0.5;
            n += 1.0;
        }
    }
    vec4 old = texelFetch(seeds, cell, 0);
    frag = n > 0.0 ? vec4(sum / n, pack_xy(keep_near(at / n, cell, s), cell, s)) : old;
}
