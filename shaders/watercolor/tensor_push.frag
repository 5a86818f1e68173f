#version 330 core
// Push step of pull-push: fills the fine level's flat (unweighted) pixels from the coarser,
// already filled level.
#include "common/pullpush.glsl"
in vec2 v_uv;
out vec4 frag;
uniform sampler2D fine;
uniform sampler2D coarse;

void main() {
    frag = push_fill(texelFetch(fine, ivec2(gl_FragCoord.xy), 0), texture(coarse, v_uv));
}
