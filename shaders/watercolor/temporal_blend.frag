#version 330 core
// Temporal smoothing of a per-pixel quantity along the optical flow:
// X <- (1 - a) X + a warp(X_prev). Used for the structure tensor (tensors are blended, never
// tangent vectors, which may flip sign) and for the wet-edge mask. The flow's .z says how far
// the warped past can be trusted there (the warp residual): where the flow missed (a turned
// head, a seek the estimate could not follow) the past counts less, so nothing ghosts.
out vec4 frag;
uniform sampler2D src;    // this frame's value
uniform sampler2D prev;   // last frame's result of this pass
uniform sampler2D flow;   // backward flow, UV units (.xy); confidence 0..1 (.z)
uniform int u_history;
uniform float u_temporal_strength;

void main() {
    vec4 cur = texelFetch(src, ivec2(gl_FragCoord.xy), 0);
    vec2 uv = gl_FragCoord.xy / vec2(textureSize(src, 0));
    vec3 f = texture(flow, uv).xyz;
    vec2 puv = uv + f.xy;
    if (u_history == 0 || any(lessThan(puv, vec2(0.0))) || any(greaterThan(puv, vec2(1.0)))) {
        frag = cur;  // no history here (first frame, cut, or content entering the frame)
        return;
    }
    frag = mix(cur, texture(prev, puv), u_temporal_strength * f.z);
}
