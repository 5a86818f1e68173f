#version 330 core
// Resample to this target's size with a Catmull-Rom bicubic (upscale/bicubic.glsl): the
// learned enlargement's last step to a factor that is not a power of two.
#include "upscale/bicubic.glsl"
out vec4 frag;
uniform sampler2D src;
uniform vec2 u_resolution;

void main() {
    vec3 lo, hi;
    frag = vec4(clamp(bicubic(src, gl_FragCoord.xy, u_resolution, lo, hi), 0.0, 1.0), 1.0);
}
