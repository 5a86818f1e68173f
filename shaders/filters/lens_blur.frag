#version 330 core
// Lens blur, step 2: the weighted mean over a disc of radius R (the lens's circle of
// confusion, work px) of lens_weight.frag's premultiplied linear light, back to sRGB. A tap
// at distance d weighs its pixel's coverage by the disc, clamp(R + 0.5 - d, 0, 1), so the
// disc's edge is antialiased and fractional radii are smooth. Replicated borders.
// tiles: reach min(24, ceil(max(u_lens_radius, 0) + 0.5))
#include "common/color.glsl"
out vec4 frag;
uniform sampler2D src;  // (w * linear RGB, w)
uniform float u_lens_radius;

const int MAX_RADIUS = 24;

void main() {
    ivec2 p = ivec2(gl_FragCoord.xy);
    ivec2 lim = textureSize(src, 0) - 1;
    float radius = clamp(u_lens_radius, 0.0, float(MAX_RADIUS));
    float reach = radius + 0.5;  // coverage is zero from here on
    int r = min(MAX_RADIUS, int(ceil(reach)) - 1);
    // The centre's coverage is min(R + 0.5, 1): 1, or below R = 0.5 the only tap (normalized).
    vec4 sum = texelFetch(src, p, 0);
    for (int j = -MAX_RADIUS; j <= MAX_RADIUS; j++) {
        if (j < -r) continue;
        if (j > r) break;
        // this row's half-width inside the disc
        int hw = min(r, int(floor(sqrt(max(reach * reach - float(j * j), 0.0)))));
        for (int i = -MAX_RADIUS; i <= MAX_RADIUS; i++) {
            if (i < -hw) continue;
            if (i > hw) break;
            if (i == 0 && j == 0) continue;
            float a = clamp(reach - length(vec2(i, j)), 0.0, 1.0);
            if (a <= 0.0) continue;
            sum += a * texelFetch(src, clamp(p + ivec2(i, j), ivec2(0), lim), 0);
        }
    }
    frag = vec4(linear_to_srgb(sum.rgb / sum.a), 1.0);
}
