#version 330 core
// Stereo matching, step 6: the right view's disparity from the same volume (no second
// matching): right pixel x at disparity d is left pixel x + d's cost at d. Winner-take-all
// and the sub-pixel parabola as for the left view; .r = disparity, .g = the best cost.
#include "stereo/match.glsl"
out vec4 frag;
uniform sampler2D volume;
uniform vec2 u_resolution;

void main() {
    ivec2 p = ivec2(gl_FragCoord.xy);
    ivec2 view = ivec2(u_resolution);
    int levels = match_levels();
    float best = 1e30;
    int bd = 0;
    for (int d = 0; d < MATCH_MAX_LEVELS; d++) {
        if (d >= levels || p.x + d >= view.x) break;
        float c = match_cost(volume, p + ivec2(d, 0), d, view);
        if (c < best) { best = c; bd = d; }
    }
    float offset = 0.0;
    if (bd > 0 && bd < levels - 1 && p.x + bd + 1 < view.x) {
        float below = match_cost(volume, p + ivec2(bd - 1, 0), bd - 1, view);
        float above = match_cost(volume, p + ivec2(bd + 1, 0), bd + 1, view);
        float curvature = below + above - 2.0 * best;
        if (!match_missing(below) && !match_missing(above) && curvature > 1e-6)
            offset = clamp(0.5 * (below - above) / curvature, -0.5, 0.5);
    }
    frag = vec4(float(bd) + offset, best, 0.0, 1.0);
}
