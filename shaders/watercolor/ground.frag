#version 330 core
// The background's own colour, weighted for the ground's wide wash (watercolor/ground.glsl):
// the abstraction premultiplied by how much a texel is background (not the figure), blurred
// after this as the wide wash is (common/gauss_blur.frag), so its weight comes along. The
// style lays it in the bleed's targets (free until the bleed) and the result in `ground`
// (the wide blur's scratch before): a big still's tiles are planned by its targets' memory.
// tiles: reach 0
#include "watercolor/ground.glsl"
out vec4 frag;
uniform sampler2D src;     // Lab, abstracted (larger target: one bilinear tap averages)
uniform sampler2D figure;  // .x the figure, its outline on the photo's edges (figure_edges)
uniform vec2 u_resolution;

void main() {
    vec2 uv = gl_FragCoord.xy / u_resolution;
    float w = ground_weight(texture(figure, uv).x);
    frag = vec4(texture(src, uv).xyz * w, w);
}
