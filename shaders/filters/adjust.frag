#version 330 core
// Colour adjustments in one pass (the order a photo editor applies them): exposure (stops,
// in linear light), temperature / tint (white balance gains in linear light), brightness
// and contrast (on sRGB values, around mid grey), saturation and vibrance (vibrance raises
// the dull colours more), hue rotation (around the grey axis), and last the tone curve on
// each of R, G and B (sRGB values): a monotone cubic through (0,0), (0.25, shadows),
// (0.5, midtones), (0.75, highlights), (1,1), skipped when those are the identity.
// tiles: reach 0
#include "common/color.glsl"
#include "filters/lut3d.glsl"
#include "filters/curves.glsl"
out vec4 frag;
uniform sampler2D src;
uniform float u_exposure;     // stops
uniform float u_temperature;  // -1 (cool) .. 1 (warm)
uniform float u_tint;         // -1 (green) .. 1 (magenta)
uniform float u_brightness;   // -1 .. 1, added
uniform float u_contrast;     // -1 .. 1
uniform float u_saturation;   // -1 .. 1
uniform float u_vibrance;     // -1 .. 1
uniform float u_hue;          // degrees
uniform float u_curve_shadows;     // the curve's output at input 0.25
uniform float u_curve_midtones;    // at 0.5
uniform float u_curve_highlights;  // at 0.75
uniform sampler2D lut;             // a 3D table as N*N x N (see engine/lut.py); 1x1: none
uniform float u_lut_amount;

const vec3 LUMA = vec3(0.2126, 0.7152, 0.0722);

void main() {
    vec3 c = texelFetch(src, ivec2(gl_FragCoord.xy), 0).rgb;
    vec3 lin = srgb_to_linear(c) * exp2(u_exposure);
    lin *= vec3(1.0 + 0.3 * u_temperature, 1.0 - 0.3 * u_tint, 1.0 - 0.3 * u_temperature);
    c = linear_to_srgb(lin);
    c = c + u_brightness;
    c = (c - 0.5) * (1.0 + u_contrast) + 0.5;
    c = clamp(c, 0.0, 1.0);
    float y = dot(c, LUMA);
    float sat = max(c.r, max(c.g, c.b)) - min(c.r, min(c.g, c.b));
    float s = (1.0 + u_saturation) * (1.0 + u_vibrance * (1.0 - sat));
    c = mix(vec3(y), c, max(s, 0.0));
    if (u_hue != 0.0) {
        // Rodrigues rotation about the grey axis (1, 1, 1) / sqrt(3).
        float a = radians(u_hue);
        vec3 k = vec3(0.57735027);
        c = c * cos(a) + cross(k, c) * sin(a) + k * dot(k, c) * (1.0 - cos(a));
    }
    c = clamp(c, 0.0, 1.0);
    vec3 points = vec3(u_curve_shadows, u_curve_midtones, u_curve_highlights);
    if (points != vec3(0.25, 0.5, 0.75)) {
        float y[CURVE_POINTS] = float[CURVE_POINTS](0.0, points.x, points.y, points.z, 1.0);
        float m[CURVE_POINTS];
        curve_tangents(y, m);
        c = vec3(curve_eval(c.r, y, m), curve_eval(c.g, y, m), curve_eval(c.b, y, m));
    }
    c = clamp(c, 0.0, 1.0);
    ivec2 lut_px = textureSize(lut, 0);
    if (lut_px.y > 1 && u_lut_amount > 0.0)
        c = mix(c, lut3d(lut, lut_px.y, c), u_lut_amount);
    frag = vec4(clamp(c, 0.0, 1.0), 1.0);
}
