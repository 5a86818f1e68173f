#version 330 core
// Wash tones (watercolor/tones.glsl) of the abstracted Lab image, per pixel. Away from the
// subject (saliency) the tones follow a widely blurred copy, so the background dissolves
// into large washes.
// tiles: reach 1
#include "watercolor/tones.glsl"
out vec4 frag;
uniform sampler2D src;        // Lab, abstracted
uniform sampler2D coarse;     // Lab, widely blurred (smaller target)
uniform sampler2D wash;       // low-frequency noise; .w moves the tone thresholds
uniform sampler2D saliency;
uniform float u_detail;
uniform float u_px;             // work px per reference px
uniform float u_target_scale;
uniform vec2 u_resolution;

float lum(ivec2 p) {
    return texelFetch(src, clamp(p, ivec2(0), ivec2(u_resolution) - 1), 0).x;
}

void main() {
    ivec2 ip = ivec2(gl_FragCoord.xy);
    vec4 lab = texelFetch(src, ip, 0);
    vec2 uv = gl_FragCoord.xy / u_resolution;
    float subject = u_detail * texture(saliency, uv).x;
    lab.xyz = mix(texture(coarse, uv).xyz, lab.xyz, 0.4 + 0.6 * subject);
    vec2 g = vec2(lum(ip + ivec2(1, 0)) - lum(ip - ivec2(1, 0)),
                  lum(ip + ivec2(0, 1)) - lum(ip - ivec2(0, 1))) * 0.5;
    float slope = tone_slope(length(g), u_target_scale * u_px);
    frag = vec4(wash_tone(lab.xyz, slope, subject, texture(wash, uv).w), 1.0);
}
