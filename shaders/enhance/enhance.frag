#version 330 core
// Applies the enhancement: luma through the lookup tables (CLAHE: bilinear between the
// four nearest tiles' tables, as OpenCV does), colour kept (YCrCb, BT.601), then a
// grey-world white balance (gains in linear light towards equal channel means) and gamma.
#include "common/color.glsl"
#include "enhance/luma8.glsl"
uniform sampler2D src;
uniform sampler2D lut;    // 256 x tiles, new luma 0..255
uniform sampler2D sums;   // 1x1: linear colour sums, count in alpha
uniform int u_tiles;      // CLAHE's tiles across and down
uniform int u_equalize;   // 1 global (one tile), 2 clahe
uniform float u_amount;
uniform float u_white_balance;
uniform float u_gamma;
out vec4 frag;

float table(float y, ivec2 tile) {
    return texelFetch(lut, ivec2(int(y), tile.y * u_tiles + tile.x), 0).r;
}

void main() {
    ivec2 p = ivec2(gl_FragCoord.xy);
    vec3 c = texelFetch(src, p, 0).rgb;
    if (u_equalize != 0) {
        float y = luma8(c);
        float y2;
        if (u_equalize == 1) {
            y2 = table(y, ivec2(0));
        } else {
            ivec2 tiles = ivec2(u_tiles);
            vec2 ts = vec2(tile_size(textureSize(src, 0), tiles));
            vec2 tf = vec2(p) / ts - 0.5;
            ivec2 t1 = ivec2(floor(tf));
            vec2 a = tf - vec2(t1);
            ivec2 t2 = min(t1 + 1, tiles - 1);
            t1 = max(t1, ivec2(0));
            y2 = mix(mix(table(y, t1), table(y, ivec2(t2.x, t1.y)), a.x),
                     mix(table(y, ivec2(t1.x, t2.y)), table(y, t2), a.x), a.y);
        }
        y2 = mix(y, y2, u_amount);
        vec3 v = c * 255.0;
        float yf = y;
        float cr = (v.r - yf) * 0.713;
        float cb = (v.b - yf) * 0.564;
        c = vec3(y2 + 1.403 * cr, y2 - 0.714 * cr - 0.344 * cb, y2 + 1.773 * cb) / 255.0;
        c = clamp(c, 0.0, 1.0);
    }
    if (u_white_balance > 0.0) {
        vec4 s = texelFetch(sums, ivec2(0), 0);
        vec3 mean = s.rgb / max(s.a, 1.0);
        vec3 gains = clamp(dot(mean, vec3(1.0 / 3.0)) / max(mean, vec3(1e-4)), 0.5, 2.0);
        c = linear_to_srgb(srgb_to_linear(c) * mix(vec3(1.0), gains, u_white_balance));
    }
    if (u_gamma != 1.0)
        c = pow(clamp(c, 0.0, 1.0), vec3(1.0 / u_gamma));
    frag = vec4(clamp(c, 0.0, 1.0), 1.0);
}
