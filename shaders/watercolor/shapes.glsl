// Shapes (SLIC superpixels, Achanta et al. 2012, on the shape grid: 1/8 of a 720-line
// frame's pixel at any picture size): one seed per cell of a regular grid, holding the mean
// Lab colour of its texels (.xyz) and their mean position (.w: packed, as its offset from
// the cell's centre to 1/2048 of a cell, so a seed carried along the flow does not jitter).
// A texel belongs to the nearest seed in colour and space of the 4x4 cells around it (the
// seeds within 1.5 cells: near cell corners the candidates change smoothly).
const float COMPACT = 10.0;     // Lab units that weigh as much as a cell's width
const float DRIFT = 0.75;       // how far (in cells) a seed may leave its cell's centre
const float PACK = 2047.5;      // steps of an offset per cell (x + 4096 y: exact in a float)

float pack_xy(vec2 p, ivec2 cell, vec2 s) {
    vec2 o = clamp((p / s - vec2(cell) - 0.5), vec2(-1.0), vec2(1.0));
    vec2 q = floor((o + 1.0) * PACK + 0.5);
    return q.x + q.y * 4096.0;
}

// The position (texels of the grid) of the seed of `cell` packed in `w`.
vec2 unpack_xy(float w, ivec2 cell, vec2 s) {
    float y = floor(w / 4096.0);
    vec2 o = vec2(w - y * 4096.0, y) / PACK - 1.0;
    return (vec2(cell) + 0.5 + o) * s;
}

// A cell's size in texels of the shape grid.
vec2 cell_size(sampler2D grid, sampler2D seeds) {
    return vec2(textureSize(grid, 0)) / vec2(textureSize(seeds, 0));
}

// A seed's position kept within DRIFT cells of its cell's centre.
vec2 keep_near(vec2 p, ivec2 cell, vec2 s) {
    vec2 home = (vec2(cell) + 0.5) * s;
    return clamp(p, home - DRIFT * s, home + DRIFT * s);
}

// SLIC's distance of a texel (colour `lab` at `x`) from the seed of `cell`, in cells.
float seed_distance(vec3 lab, vec2 x, vec4 seed, ivec2 cell, vec2 s) {
    vec3 dc = (lab - seed.xyz) / COMPACT;
    vec2 dx = (x - unpack_xy(seed.w, cell, s)) / s;
    return dot(dc, dc) + dot(dx, dx);
}

// The first of the 4x4 cells whose seeds may claim a texel at `x` (texels of the grid).
ivec2 first_cell(vec2 x, vec2 s, ivec2 cells) {
    return clamp(ivec2(floor(x / s - 0.5)) - 1, ivec2(0), max(cells - 4, ivec2(0)));
}

// The texels (lo, hi) that the seed of `cell` may claim (see first_cell; the first and last
// cells' seeds claim up to the grid's edge).
void claimed(ivec2 cell, vec2 s, ivec2 size, ivec2 cells, out ivec2 lo, out ivec2 hi) {
    vec2 a = mix(vec2(cell) - 1.5, vec2(0.0), vec2(lessThanEqual(cell, ivec2(3))));
    vec2 b = mix(vec2(cell) + 2.5, vec2(cells), vec2(greaterThanEqual(cell, cells - 4)));
    lo = max(ivec2(floor(a * s)), ivec2(0));
    hi = min(ivec2(ceil(b * s)), size);
}
