#version 330 core
// Stereo matching, step 5: the left view's disparity, winner-take-all over the aggregated
// volume, refined to a sub-pixel by the parabola through the best cost and its neighbours.
// .r = disparity (match pixels), .g = 1 when unique: every disparity more than one level
// away costs more than (1 + u_uniqueness) times the best (OpenCV's uniquenessRatio / 100),
// .b = the best cost, .a = the best whole disparity.
#include "stereo/match.glsl"
out vec4 frag;
uniform sampler2D volume;
uniform float u_uniqueness;
uniform vec2 u_resolution;

void main() {
    ivec2 p = ivec2(gl_FragCoord.xy);
    ivec2 view = ivec2(u_resolution);
    int slices = match_slices();
    float best = 1e30;
    int bd = 0;
    for (int s = 0; s < MATCH_MAX_LEVELS / 4; s++) {
        if (s >= slices) break;
        vec4 c = match_fetch(volume, p, s, view);
        if (c.x < best) { best = c.x; bd = 4 * s; }
        if (c.y < best) { best = c.y; bd = 4 * s + 1; }
        if (c.z < best) { best = c.z; bd = 4 * s + 2; }
        if (c.w < best) { best = c.w; bd = 4 * s + 3; }
    }
    float second = 1e30;  // the best cost more than one level away
    for (int s = 0; s < MATCH_MAX_LEVELS / 4; s++) {
        if (s >= slices) break;
        vec4 c = match_fetch(volume, p, s, view);
        ivec4 d = ivec4(4 * s) + ivec4(0, 1, 2, 3);
        bvec4 far = greaterThan(abs(d - ivec4(bd)), ivec4(1));
        if (far.x) second = min(second, c.x);
        if (far.y) second = min(second, c.y);
        if (far.z) second = min(second, c.z);
        if (far.w) second = min(second, c.w);
    }
    float below = match_cost(volume, p, bd - 1, view);
    float above = match_cost(volume, p, bd + 1, view);
    float offset = 0.0;
    float curvature = below + above - 2.0 * best;
    if (!match_missing(below) && !match_missing(above) && curvature > 1e-6)
        offset = clamp(0.5 * (below - above) / curvature, -0.5, 0.5);
    bool unique = second > best * (1.0 + u_uniqueness) || second >= 1e29;
    frag = vec4(float(bd) + offset, unique ? 1.0 : 0.0, best, float(bd));
}
