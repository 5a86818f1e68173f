#version 330 core
// Temporal denoising for video: a recursive average with last frame's result warped along
// the optical flow, weighted down where the two differ (motion the flow missed, a new
// object) so nothing ghosts; no history (first frame, a cut, a seek): the frame itself.
out vec4 frag;
uniform sampler2D src;    // this frame, spatially denoised
uniform sampler2D prev;   // last frame's result
uniform sampler2D flow;   // backward flow, UV units (.xy); confidence 0..1 (.z)
uniform int u_history;
uniform float u_temporal_strength;  // 0..0.95: how much of the past a still pixel keeps
uniform float u_motion_limit;  // colour difference (8-bit units) where the past stops counting

void main() {
    vec3 cur = texelFetch(src, ivec2(gl_FragCoord.xy), 0).rgb;
    vec2 uv = gl_FragCoord.xy / vec2(textureSize(src, 0));
    vec3 f = texture(flow, uv).xyz;
    vec2 puv = uv + f.xy;
    if (u_history == 0 || any(lessThan(puv, vec2(0.0))) || any(greaterThan(puv, vec2(1.0)))) {
        frag = vec4(cur, 1.0);
        return;
    }
    vec3 past = texture(prev, puv).rgb;
    float d = length(past - cur) * 255.0;
    float keep = u_temporal_strength * f.z
        * (1.0 - smoothstep(0.5 * u_motion_limit, u_motion_limit, d));
    frag = vec4(mix(cur, past, keep), 1.0);
}
