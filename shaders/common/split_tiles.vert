#version 330 core
// A split pass's second part (PassSpec.split: on a CPU renderer, which runs every branch of
// a shader for every pixel): two triangles a tile, the output cut evenly into a tile a texel
// of `split_tiles` (common/split_map.frag); a tile whose texel is 0 collapses to a point
// outside the view (never rasterized), so the costly part is shaded only where it counts.
uniform sampler2D split_tiles;  // > 0: the tile is drawn

const ivec2 CORNERS[6] = ivec2[6](ivec2(0, 0), ivec2(1, 0), ivec2(0, 1),
                                  ivec2(1, 0), ivec2(1, 1), ivec2(0, 1));

void main() {
    ivec2 grid = textureSize(split_tiles, 0);
    int tile = gl_VertexID / 6;
    ivec2 t = ivec2(tile % grid.x, tile / grid.x);
    if (texelFetch(split_tiles, t, 0).r <= 0.0) {
        gl_Position = vec4(2.0, 2.0, 0.0, 1.0);  // (all six: an empty triangle, clipped)
        return;
    }
    vec2 corner = vec2(t + CORNERS[gl_VertexID % 6]) / vec2(grid);
    gl_Position = vec4(corner * 2.0 - 1.0, 0.0, 1.0);
}
