#version 330 core
// Scatter pass: one point per sample of `src`, placed in column luma (0..255) of the row of
// its tile (rows: tiles in reading order; one row for a global histogram). Additive
// blending counts them.
#include "enhance/luma8.glsl"
uniform sampler2D src;
uniform int u_scatter_step;
uniform ivec2 u_scatter_grid;
uniform int u_tiles;      // CLAHE's tiles across and down
uniform int u_equalize;   // 1 global (one tile), 2 clahe
uniform vec2 u_resolution;  // the histogram target: 256 x (tiles)

void main() {
    ivec2 tiles = u_equalize == 2 ? ivec2(u_tiles) : ivec2(1);
    ivec2 g = ivec2(gl_VertexID % u_scatter_grid.x, gl_VertexID / u_scatter_grid.x);
    ivec2 p = g * u_scatter_step;
    ivec2 size = textureSize(src, 0);
    float y = luma8(texelFetch(src, p, 0).rgb);
    ivec2 tile = min(p / tile_size(size, tiles), tiles - 1);
    float row = float(tile.y * tiles.x + tile.x);
    gl_Position = vec4((vec2(y, row) + 0.5) / u_resolution * 2.0 - 1.0, 0.0, 1.0);
}
