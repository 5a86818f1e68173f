#version 330 core
// Relief: the picture as a surface whose height is its luma (common/color.glsl, on sRGB
// values) times `depth` px, lit by a directional light. Normals from Sobel gradients
// (divided by 8: slope per px, replicated borders); Lambert shading with ambient light,
// relative to a flat surface's, so flat areas keep their colour and slopes facing the light
// brighten. Shading is applied in linear light to the colour mixed with mid grey by
// `emboss` (1: the classic grey emboss).
// tiles: reach 1
#include "common/color.glsl"
out vec4 frag;
uniform sampler2D src;
uniform float u_depth;      // px of height per unit of luma
uniform float u_azimuth;    // degrees, counter-clockwise from the right, as seen
uniform float u_elevation;  // degrees above the picture's plane
uniform float u_ambient;    // 0..1
uniform float u_emboss;     // 0 colour .. 1 grey

float h(ivec2 q, ivec2 lim) {
    return luma(texelFetch(src, clamp(q, ivec2(0), lim), 0).rgb);
}

void main() {
    ivec2 p = ivec2(gl_FragCoord.xy);
    ivec2 lim = textureSize(src, 0) - 1;
    float a = h(p + ivec2(-1, -1), lim), b = h(p + ivec2(0, -1), lim), c = h(p + ivec2(1, -1), lim);
    float d = h(p + ivec2(-1, 0), lim), f = h(p + ivec2(1, 0), lim);
    float g = h(p + ivec2(-1, 1), lim), k = h(p + ivec2(0, 1), lim), i = h(p + ivec2(1, 1), lim);
    // x to the right, y along the rows (downwards on screen), z out of the picture
    float gx = ((c + 2.0 * f + i) - (a + 2.0 * d + g)) / 8.0;
    float gy = ((g + 2.0 * k + i) - (a + 2.0 * b + c)) / 8.0;
    vec3 n = normalize(vec3(-u_depth * gx, -u_depth * gy, 1.0));
    float az = radians(u_azimuth), el = radians(u_elevation);
    vec3 l = vec3(cos(el) * cos(az), -cos(el) * sin(az), sin(el));
    float flat_light = u_ambient + (1.0 - u_ambient) * sin(el);
    float light = u_ambient + (1.0 - u_ambient) * max(dot(n, l), 0.0);
    float gain = light / max(flat_light, 1e-3);
    vec3 base = mix(srgb_to_linear(texelFetch(src, p, 0).rgb), vec3(srgb_to_linear1(0.5)),
                    u_emboss);
    frag = vec4(linear_to_srgb(base * gain), 1.0);
}
