#version 330 core
// Motion blur along the optical flow (video): each pixel is averaged along its own motion
// between the previous frame and this one, as a camera's shutter would smear it. The streak
// is centred on the pixel, `shutter` times the motion long (1: the whole way from where it
// was in the previous frame; 0.5: a 180-degree shutter), at most `max_length` px. With no
// motion (a still, the first frame, a cut: zero flow) the picture is unchanged.
#include "filters/line_blur.glsl"
out vec4 frag;
uniform sampler2D src;
uniform sampler2D flow;  // backward flow, UV units: uv came from uv + flow(uv)
uniform vec2 u_resolution;
uniform float u_shutter;
uniform float u_max_length;  // px

void main() {
    vec2 uv = gl_FragCoord.xy / u_resolution;
    vec2 size = vec2(textureSize(src, 0));
    vec2 m = texture(flow, uv).xy * size;  // px, towards where it was
    float d = length(m);
    float len = min(d * u_shutter, u_max_length);
    if (len <= 1.0) {  // a one-pixel streak is the pixel itself
        frag = vec4(texture(src, uv).rgb, 1.0);
        return;
    }
    frag = vec4(line_blur(src, uv, m / (d * size), len).rgb, 1.0);
}
