// Stereo matching, shared: the cost volume's layout and the census bit strings.
//
// The matching cost of every left-view pixel p at every disparity d (0 .. D-1, in match
// pixels: the left pixel x matches the right pixel x - d) is kept 4 disparities per texel
// (d = 4 s + channel) in D/4 slices the size of a view. The slices lie in a grid of
// match_columns() columns, slice s at column s % columns and row s / columns, so the volume
// is [columns, D / 4 / columns] times the view's size (the style's scale_by; a factor is at
// most 4, so 128's [4, 8] is two entries): 32 -> [2, 4], 64 -> [4, 4], 128 -> [4, 8]. A
// grid stays below the texture size limit where one column of slices would pass it (a
// 1080-line view x 32 slices). The volume's size is rounded from the frame's, so it may be
// a pixel or two off a whole number of views: reads clamp into the slice's existing texels.
uniform int u_max_disparity;  // the menu's index: 0 -> 32, 1 -> 64, 2 -> 128

const int MATCH_MAX_LEVELS = 128;  // the largest D (loop bounds)
const float MATCH_NO_COST = 4.0;   // a disparity without a right pixel (costs are 0 .. 2)
bool match_missing(float c) { return c >= MATCH_NO_COST; }

int match_levels() { return 32 << clamp(u_max_disparity, 0, 2); }
int match_slices() { return match_levels() / 4; }
int match_columns() { return match_slices() >= 16 ? 4 : 2; }

ivec2 match_slice_origin(int s, ivec2 view) {
    int c = match_columns();
    return ivec2((s % c) * view.x, (s / c) * view.y);
}

// The slice and the view pixel of a volume texel; false outside every slice.
bool match_locate(ivec2 q, ivec2 view, out int s, out ivec2 p) {
    ivec2 cell = q / view;
    p = q - cell * view;
    s = cell.x + cell.y * match_columns();
    return cell.x < match_columns() && s < match_slices();
}

// The 4 costs of slice s at view pixel p (clamped into the view: replicated borders).
vec4 match_fetch(sampler2D volume, ivec2 p, int s, ivec2 view) {
    ivec2 q = match_slice_origin(s, view) + clamp(p, ivec2(0), view - 1);
    return texelFetch(volume, min(q, textureSize(volume, 0) - 1), 0);
}

// The cost of disparity d at view pixel p (d outside 0 .. D-1: MATCH_NO_COST).
float match_cost(sampler2D volume, ivec2 p, int d, ivec2 view) {
    if (d < 0 || d >= match_levels()) return MATCH_NO_COST;
    vec4 c = match_fetch(volume, p, d / 4, view);
    int k = d - 4 * (d / 4);
    return k == 0 ? c.x : k == 1 ? c.y : k == 2 ? c.z : c.w;
}

// A census string (24 bits, a whole number in a float: exact in r32f) back to bits. Not
// uint(v + 0.5): above 2^23 a float's step is 1, and v + 0.5 would round odd strings up.
uint census_bits(float v) { return uint(v); }

// Set bits of v (GLSL 3.30 has no bitCount).
int popcount(uint v) {
    v = v - ((v >> 1) & 0x55555555u);
    v = (v & 0x33333333u) + ((v >> 2) & 0x33333333u);
    return int((((v + (v >> 4)) & 0x0F0F0F0Fu) * 0x01010101u) >> 24);
}
