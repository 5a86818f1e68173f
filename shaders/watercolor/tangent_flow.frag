#version 330 core
// Tangent flow map from the smoothed structure tensor (after the last push step of the flat
// fill): .xy unit tangent (along edges, the minor eigenvector), .z anisotropy
// A = (l1 - l2) / (l1 + l2).
#include "common/pullpush.glsl"
in vec2 v_uv;
out vec4 frag;
uniform sampler2D tensor;   // smoothed, premultiplied by validity
uniform sampler2D coarse;   // filled half-size level

void main() {
    vec3 g = push_fill(texelFetch(tensor, ivec2(gl_FragCoord.xy), 0), texture(coarse, v_uv)).xyz;
    float E = g.x, F = g.y, G = g.z;
    float root = sqrt((E - G) * (E - G) + 4.0 * F * F);
    float l1 = 0.5 * (E + G + root);
    float l2 = 0.5 * (E + G - root);
    vec2 t = vec2(l1 - E, -F);
    float len = length(t);
    // l1 - E and F both vanish for a gradient along x only: the tangent is then vertical.
    t = len > 0.0 ? t / len : vec2(0.0, 1.0);
    float A = (l1 + l2) > 0.0 ? (l1 - l2) / (l1 + l2) : 0.0;
    frag = vec4(t, A, 1.0);
}
