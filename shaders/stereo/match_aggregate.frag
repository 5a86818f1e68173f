#version 330 core
// Stereo matching, step 4 (twice: along rows, then columns): the costs averaged over
// 2 r + 1 pixels, slice by slice (borders replicated within the slice, never reaching a
// neighbouring slice). Box (u_aggregation 0), or adaptive support weights (1): each pixel
// of the window weighs exp(-|colour difference to the centre| / u_edge_sigma) in the left
// view, so a window straddling a depth edge mostly averages its own surface's costs.
// Missing costs (MATCH_NO_COST: no right pixel, x < d) are left out; none at all stays
// missing.
#include "stereo/match.glsl"
out vec4 frag;
uniform sampler2D volume;
uniform sampler2D guide;    // the left view at the match size (its size: the slices')
uniform vec2 u_step;        // (1, 0) along rows, (0, 1) along columns
uniform int u_window_radius;
uniform int u_aggregation;  // 0 box, 1 adaptive
uniform float u_edge_sigma; // colour levels (0 .. 255)

const int MAX_RADIUS = 16;

void main() {
    ivec2 size = textureSize(guide, 0);
    int s;
    ivec2 p;
    if (!match_locate(ivec2(gl_FragCoord.xy), size, s, p)) {
        frag = vec4(MATCH_NO_COST);
        return;
    }
    int r = clamp(u_window_radius, 0, MAX_RADIUS);
    ivec2 dir = ivec2(u_step);
    // the slice's texels in the volume (a rounded volume may cut the last ones off)
    ivec2 origin = match_slice_origin(s, size);
    ivec2 last = min(origin + size - 1, textureSize(volume, 0) - 1);
    ivec2 q0 = origin + p - r * dir;
    vec3 centre = texelFetch(guide, p, 0).rgb;
    float k = u_aggregation == 1 ? 255.0 / (3.0 * max(u_edge_sigma, 0.1)) : 0.0;
    vec4 levels = vec4(4 * s) + vec4(0.0, 1.0, 2.0, 3.0);  // a tap left of x = d has no cost
    vec4 sum = vec4(0.0);
    vec4 weights = vec4(0.0);
    for (int i = 0; i <= 2 * MAX_RADIUS; i++) {
        if (i > 2 * r) break;
        ivec2 q = clamp(q0 + i * dir, origin, last);
        vec3 diff = abs(texelFetch(guide, q - origin, 0).rgb - centre);
        float w = exp(-k * (diff.r + diff.g + diff.b));
        vec4 wc = w * step(levels, vec4(float(q.x - origin.x)));
        sum += wc * texelFetch(volume, q, 0);
        weights += wc;
    }
    bvec4 some = greaterThan(weights, vec4(0.0));
    frag = mix(vec4(MATCH_NO_COST), sum / max(weights, vec4(1e-30)), vec4(some));
}
