#version 330 core
// Lens blur, step 1: each pixel in linear light, weighted by how much of a highlight it is,
// premultiplied: (w * linear RGB, w) with w = 1 + boost * t^2 and
// t = clamp((Y - threshold) / (1 - threshold), 0, 1), Y the linear luminance (Rec. 709).
// Averaging these over the lens's disc (lens_blur.frag) lets bright points spread into
// bright discs (bokeh) while a flat area keeps its colour.
// tiles: reach 0
#include "common/color.glsl"
out vec4 frag;
uniform sampler2D src;
uniform float u_highlight_boost;
uniform float u_highlight_threshold;

void main() {
    vec3 lin = srgb_to_linear(texelFetch(src, ivec2(gl_FragCoord.xy), 0).rgb);
    float y = dot(lin, vec3(0.2126, 0.7152, 0.0722));
    float t = clamp((y - u_highlight_threshold) / max(1.0 - u_highlight_threshold, 1e-4),
                    0.0, 1.0);
    float w = 1.0 + u_highlight_boost * t * t;
    frag = vec4(lin * w, w);
}
