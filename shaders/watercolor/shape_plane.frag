#version 330 core
// Shapes, their grading: the least-squares slope of lightness over each seed's texels
// (L* per texel of the shape grid, .xy), damped on small or straggly shapes, so each shape
// is one graded wash, light to dark the way the light falls across it.
// tiles: reach 0
#include "watercolor/shapes.glsl"
out vec4 frag;
uniform sampler2D lab;
uniform sampler2D labels;
uniform sampler2D seeds;

void main() {
    ivec2 cell = ivec2(gl_FragCoord.xy);
    ivec2 size = textureSize(lab, 0);
    vec2 s = cell_size(lab, seeds);
    vec4 seed = texelFetch(seeds, cell, 0);
    vec2 mid = unpack_xy(seed.w, cell, s);
    ivec2 lo, hi;
    claimed(cell, s, size, textureSize(seeds, 0), lo, hi);
    vec3 m = vec3(0.0);   // sums of dx dx, dx dy, dy dy
    vec2 b = vec2(0.0);   // sums of dx dL, dy dL
    float n = 0.0;
    for (int y = lo.y; y < hi.y; y++) {
        for (int x = lo.x; x < hi.x; x++) {
            ivec2 t = ivec2(x, y);
            if (ivec2(texelFetch(labels, t, 0).xy + 0.5) != cell) continue;
            vec2 d = vec2(t) + 0.5 - mid;
            float dl = texelFetch(lab, t, 0).x - seed.x;
            m += vec3(d.x * d.x, d.x * d.y, d.y * d.y);
            b += d * dl;
            n += 1.0;
        }
    }
    // ridge: a shape a few texels across (or a sliver) gets little slope
    float ridge = 2.0 * n + 1.0;
    float a = m.x + ridge, c = m.z + ridge;
    float det = a * c - m.y * m.y;
    vec2 g = vec2(c * b.x - m.y * b.y, a * b.y - m.y * b.x) / det;
    frag = vec4(g, n, 1.0);
}
