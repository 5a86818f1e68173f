#version 330 core
// Shapes, the seeds of a still (or a video's first frame): one per cell of the grid, at its
// centre.
// tiles: reach 0
#include "watercolor/shapes.glsl"
out vec4 frag;
uniform sampler2D lab;    // Lab on the shape grid
uniform vec2 u_resolution;

void main() {
    vec2 grid = vec2(textureSize(lab, 0));
    vec2 s = grid / u_resolution;
    vec2 p = gl_FragCoord.xy * s;
    frag = vec4(texture(lab, p / grid).xyz, pack_xy(p, ivec2(gl_FragCoord.xy), s));
}
