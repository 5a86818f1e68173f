#version 330 core
// Colour adjustments in one pass (the order a photo editor applies them): exposure (stops,
// in linear light), temperature / tint (white balance gains in linear light), brightness
// and contrast (on sRGB values, around mid grey), saturation and vibrance (vibrance raises
// the dull colours more), hue rotation (around the grey axis).
#include "common/color.glsl"
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
    frag = vec4(clamp(c, 0.0, 1.0), 1.0);
}
