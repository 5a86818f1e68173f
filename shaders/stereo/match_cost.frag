#version 330 core
// Stereo matching, step 3: the cost volume (layout in match.glsl). The cost of left pixel p
// at disparity d against right pixel p - (d, 0): the census Hamming distance over its 24 bits
// (0 .. 1) plus u_color_weight times the mean absolute colour difference, truncated at
// COLOR_TRUNCATE (0 .. 1 as well). A disparity whose right pixel would be left of the view
// has no cost (MATCH_NO_COST): aggregation leaves it out, so a pixel nearer the left border
// than its disparity is matched nearer, and the left-right check rejects it.
#include "stereo/match.glsl"
out vec4 frag;
uniform sampler2D census_left;
uniform sampler2D census_right;
uniform sampler2D view_left;
uniform sampler2D view_right;
uniform float u_color_weight;

const float COLOR_TRUNCATE = 20.0 / 255.0;

float cost(ivec2 p, int d, uint bits, vec3 colour) {
    ivec2 r = p - ivec2(d, 0);
    if (r.x < 0) return MATCH_NO_COST;
    float hamming = float(popcount(bits ^ census_bits(texelFetch(census_right, r, 0).r)));
    vec3 diff = abs(colour - texelFetch(view_right, r, 0).rgb);
    float ad = min((diff.r + diff.g + diff.b) / 3.0, COLOR_TRUNCATE) / COLOR_TRUNCATE;
    return hamming / 24.0 + u_color_weight * ad;
}

void main() {
    ivec2 view = textureSize(census_left, 0);
    int s;
    ivec2 p;
    if (!match_locate(ivec2(gl_FragCoord.xy), view, s, p)) {
        frag = vec4(MATCH_NO_COST);
        return;
    }
    uint bits = census_bits(texelFetch(census_left, p, 0).r);
    vec3 colour = texelFetch(view_left, p, 0).rgb;
    int d = 4 * s;
    frag = vec4(cost(p, d, bits, colour), cost(p, d + 1, bits, colour),
                cost(p, d + 2, bits, colour), cost(p, d + 3, bits, colour));
}
