#version 330 core
// The tiles of a split pass's output where its costly part is needed (PassSpec.split): a
// texel a tile (the output cut evenly into u_grid tiles), 1 where any texel of `src` that a
// pixel of the tile samples (bilinearly, at its centre, `src` covering the same picture) has
// channel `u_channel` above 0, reckoned a texel wider each side; else 0.
out float frag;
uniform sampler2D src;
uniform int u_channel;
uniform vec2 u_grid;  // the tiles (columns, rows)

void main() {
    vec2 size = vec2(textureSize(src, 0));
    vec2 t = floor(gl_FragCoord.xy);
    // the tile's part of the picture, in texels of `src` (a lookup at uv reads the texels
    // round uv * size - 0.5)
    ivec2 lo = max(ivec2(floor(t / u_grid * size - 0.5)) - 1, ivec2(0));
    ivec2 hi = min(ivec2(floor((t + 1.0) / u_grid * size - 0.5)) + 2, ivec2(size) - 1);
    float found = 0.0;
    for (int y = lo.y; y <= hi.y; ++y) {
        for (int x = lo.x; x <= hi.x; ++x) {
            found = max(found, texelFetch(src, ivec2(x, y), 0)[u_channel]);
        }
    }
    frag = found > 0.0 ? 1.0 : 0.0;
}
