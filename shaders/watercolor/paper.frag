#version 330 core
// Procedural paper height field in [0,1]: fine grain plus a few larger bumps, seeded. The
// sheet follows the global camera motion (u_canvas_offset), as if the camera moved over it.
#include "common/noise.glsl"
out vec4 frag;
uniform int u_seed;
uniform float u_paper_scale;
uniform vec2 u_canvas_offset;

void main() {
    vec2 p = (gl_FragCoord.xy - u_canvas_offset) / u_paper_scale;
    float grain = fbm(p / 3.5, 3, u_seed, 101);
    float bumps = fbm(p / 24.0, 3, u_seed, 131);
    frag = vec4(clamp(0.7 * grain + 0.3 * bumps, 0.0, 1.0), 0.0, 0.0, 1.0);
}
