#version 330 core
// Steadiness above 0.5: the finished painting is held along the optical flow,
// out = mix(this frame, warp(last output), HOLD_MAX * hold * confidence), hold rising from 0
// at steadiness 0.5 to 1 at 1. Where the flow missed (its .z confidence) the past counts
// less, and the past is clamped to this frame's 3x3 neighbourhood (as temporal antialiasing
// does), so what moved or was uncovered does not ghost: only small changes are held.
// tiles: reach 0 if u_history == 0 else None
out vec4 frag;
uniform sampler2D src;    // this frame's painting
uniform sampler2D prev;   // last frame's output of this pass
uniform sampler2D flow;   // backward flow, UV units (.xy); confidence 0..1 (.z)
uniform int u_history;
uniform float u_steadiness;

const float HOLD_MAX = 0.85;

void main() {
    vec4 cur = texelFetch(src, ivec2(gl_FragCoord.xy), 0);
    vec2 uv = gl_FragCoord.xy / vec2(textureSize(src, 0));
    vec3 f = texture(flow, uv).xyz;
    vec2 puv = uv + f.xy;
    float hold = clamp(2.0 * u_steadiness - 1.0, 0.0, 1.0);
    if (u_history == 0 || any(lessThan(puv, vec2(0.0))) || any(greaterThan(puv, vec2(1.0)))) {
        frag = cur;
        return;
    }
    vec4 lo = cur;
    vec4 hi = cur;
    ivec2 size = textureSize(src, 0);
    for (int dy = -1; dy <= 1; ++dy) {
        for (int dx = -1; dx <= 1; ++dx) {
            vec4 n = texelFetch(src, clamp(ivec2(gl_FragCoord.xy) + ivec2(dx, dy),
                                           ivec2(0), size - 1), 0);
            lo = min(lo, n);
            hi = max(hi, n);
        }
    }
    vec4 past = clamp(texture(prev, puv), lo, hi);
    frag = mix(cur, past, HOLD_MAX * hold * f.z);
}
