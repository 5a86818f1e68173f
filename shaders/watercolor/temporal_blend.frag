#version 330 core
// Temporal smoothing of a per-pixel quantity along the optical flow:
// X <- (1 - a) X + a warp(X_prev). Used for the structure tensor (tensors are blended, never
// tangent vectors, which may flip sign) and for the wet-edge mask.
out vec4 frag;
uniform sampler2D src;    // this frame's value
uniform sampler2D prev;   // last frame's result of this pass
uniform sampler2D flow;   // backward flow, UV units
uniform int u_history;
uniform float u_temporal_strength;

void main() {
    vec4 cur = texelFetch(src, ivec2(gl_FragCoord.xy), 0);
    vec2 uv = gl_FragCoord.xy / vec2(textureSize(src, 0));
    vec2 puv = uv + texture(flow, uv).xy;
    if (u_history == 0 || any(lessThan(puv, vec2(0.0))) || any(greaterThan(puv, vec2(1.0)))) {
        frag = cur;  // no history here (first frame, cut, or content entering the frame)
        return;
    }
    frag = mix(cur, texture(prev, puv), u_temporal_strength);
}
