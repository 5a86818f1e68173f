#version 330 core
// Tangent flow map from the smoothed structure tensor (after the last push step of the flat
// fill): .xy unit tangent (along edges, the minor eigenvector), .z anisotropy
// A = (l1 - l2) / (l1 + l2).
// tiles: reach 0
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
    // Minor eigenvector, from whichever of its two equivalent forms is well conditioned:
    // (l1 - E, -F) loses all precision when E > G and F is tiny (l1 - E cancels to rounding
    // noise of E's size, which then outweighs F: axis-aligned structure got random tangents);
    // (F, G - l1) is exact there. Both vanish only for an isotropic tensor: then vertical.
    vec2 t = E >= G ? vec2(F, G - l1) : vec2(l1 - E, -F);
    float len = length(t);
    t = len > 0.0 ? t / len : vec2(0.0, 1.0);
    float A = (l1 + l2) > 0.0 ? (l1 - l2) / (l1 + l2) : 0.0;
    frag = vec4(t, A, 1.0);
}
