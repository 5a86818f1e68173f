#version 330 core
// Nearness (0 far .. 1 near) to the screen disparity of the pair in view pixels: depth
// strength (the largest disparity, % of the width), convergence (the nearness that sits on
// the screen: nearer pops out, farther recedes) and the pop-out limit (% of the width, for
// comfort).
in vec2 v_uv;
out vec4 frag;
uniform sampler2D depth;
uniform vec2 u_resolution;
uniform float u_depth_strength;  // % of the width
uniform float u_convergence;     // 0..1
uniform float u_popout_limit;    // % of the width

void main() {
    float z = texture(depth, v_uv).r;
    float d = u_resolution.x * 0.01 * u_depth_strength * (z - u_convergence);
    d = min(d, u_resolution.x * 0.01 * u_popout_limit);
    frag = vec4(d, 0.0, 0.0, 1.0);
}
