// The shapes' washes at a pixel (watercolor/shapes.glsl): the graded wash of the shape the
// pixel belongs to (its seed nearest in colour and space of the 4x4 cells around it; the
// merged colour, its lightness sloped as the shape's light falls), softly blended with a
// neighbouring shape only where the pixel is nearly as close to it: outlines follow the
// picture's own edges at the pixel's size, borders between different shapes stay hard.
// The seed grids are read whole in a tile (the input's "whole"): cells by the whole
// picture's position.
#include "watercolor/shapes.glsl"
uniform sampler2D shape_grid;  // Lab on the shape grid (its size)
uniform sampler2D seeds;       // the seeds (their own colours decide membership)
uniform sampler2D merged;      // the washes (merged colours)
uniform sampler2D planes;      // their slopes
const float CHOICE = 4.0;      // how sharply a pixel picks between two near shapes
const float REACH = 18.0;      // L*: most a slope lightens or darkens a shape from its seed

// The graded wash of the shape of `cell` at `x` (texels of the grid).
vec3 graded(ivec2 cell, vec2 x, vec2 s) {
    vec4 m = texelFetch(merged, cell, 0);
    float grade = dot(texelFetch(planes, cell, 0).xy, x - unpack_xy(m.w, cell, s));
    return m.xyz + vec3(clamp(grade, -REACH, REACH), 0.0, 0.0);
}

// The wash at `uv_whole` (of the whole picture) of a pixel of colour `lab`: its shape's,
// mixed with the runner-up's where the two are nearly as close (`CHOICE`).
vec3 shape_wash(vec3 lab, vec2 uv_whole) {
    ivec2 cells = textureSize(seeds, 0);
    vec2 grid = vec2(textureSize(shape_grid, 0));
    vec2 s = grid / vec2(cells);
    vec2 x = uv_whole * grid;
    ivec2 first = first_cell(x, s, cells);
    float d1 = 1e30, d2 = 1e30;
    ivec2 k1 = first, k2 = first;
    for (int k = 0; k < 16; k++) {
        ivec2 q = first + ivec2(k % 4, k / 4);
        if (any(greaterThanEqual(q, cells))) continue;
        float d = seed_distance(lab, x, texelFetch(seeds, q, 0), q, s);
        if (d < d1) {
            d2 = d1;
            k2 = k1;
            d1 = d;
            k1 = q;
        } else if (d < d2) {
            d2 = d;
            k2 = q;
        }
    }
    float second = d2 < 1e29 ? 0.5 * exp(-CHOICE * (d2 - d1)) : 0.0;
    return mix(graded(k1, x, s), graded(k2, x, s), second);
}
