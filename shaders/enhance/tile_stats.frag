#version 330 core
// Per tile (one row of the histogram target per tile): the sample count, the first occupied
// bin's count (global equalization) and the counts above CLAHE's clip limit, once per tile
// rather than once per table entry.
#include "enhance/clip.glsl"
uniform sampler2D hist;
uniform int u_equalize;       // 1 global, 2 clahe
uniform float u_clip_limit;
uniform int u_tiles;
out vec4 frag;

void main() {
    int row = int(gl_FragCoord.y);
    if (row >= (u_equalize == 2 ? u_tiles * u_tiles : 1)) {
        frag = vec4(0.0);  // a row no tile uses
        return;
    }
    float total = 0.0;
    float first = -1.0;
    for (int j = 0; j < 256; ++j) {
        float h = texelFetch(hist, ivec2(j, row), 0).r;
        total += h;
        if (first < 0.0 && h > 0.0) first = h;
    }
    float limit = clip_limit(u_clip_limit, total);
    float clipped = 0.0;
    for (int j = 0; j < 256; ++j)
        clipped += max(texelFetch(hist, ivec2(j, row), 0).r - limit, 0.0);
    frag = vec4(total, max(first, 0.0), clipped, limit);
}
