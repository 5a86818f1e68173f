#version 330 core
// Depth from motion: with a moving camera, near things move across the picture faster than
// far ones. What the camera's zoom and roll explain (the linear part of the frame's global
// motion u_motion, about the centre) is taken out of the flow: a flat picture zoomed or
// turned has no depth to show, and a pan moves everything alike (no spread: no confidence).
// Nearness from the rest's length, scaled between the frame's low and high percentiles, averaged over neighbours of the same colour (the flow bleeds across object
// edges; colours mostly do not); the confidence (alpha) grows with how much the speeds
// differ (a still camera or a pure rotation moves everything alike: no depth to learn).
in vec2 v_uv;
out vec4 frag;
uniform sampler2D flow;       // backward flow, UV units
uniform sampler2D guide;      // the picture
uniform vec2 u_resolution;    // this pass's size
uniform vec2 u_work_size;
uniform vec2 u_flow_range;    // 5th and 95th percentile of that length (work px)
uniform vec4 u_motion;        // the camera: current px -> previous, (a, b, tx, ty)
uniform float u_edge_sigma;
uniform int u_history;        // 0: no motion this frame

void main() {
    vec2 px = 1.0 / u_resolution;
    vec3 c0 = texture(guide, v_uv).rgb;
    float sum = 0.0, wsum = 0.0;
    for (int j = -2; j <= 2; ++j) {
        for (int i = -2; i <= 2; ++i) {
            vec2 uv = v_uv + vec2(i, j) * px;
            float dc = length(texture(guide, uv).rgb - c0);
            float w = exp(-dc * dc / (2.0 * u_edge_sigma * u_edge_sigma)) + 1e-3;
            vec2 p = uv * u_work_size - 0.5 * u_work_size;
            vec2 camera = vec2((u_motion.x - 1.0) * p.x - u_motion.y * p.y,
                               u_motion.y * p.x + (u_motion.x - 1.0) * p.y);
            sum += w * length(texture(flow, uv).xy * u_work_size - camera);
            wsum += w;
        }
    }
    float speed = sum / wsum;
    float lo = u_flow_range.x, hi = u_flow_range.y;
    float spread = hi - lo;
    float nearness = clamp((speed - lo) / max(spread, 1e-3), 0.0, 1.0);
    // at least half a pixel of difference, and a clear share of the speeds
    float confidence = u_history == 0 ? 0.0
        : smoothstep(0.3, 1.5, spread) * smoothstep(0.1, 0.4, spread / max(hi, 1e-3));
    frag = vec4(nearness, 0.0, 0.0, confidence);
}
