#version 330 core
// Contrast-adaptive sharpening after FSR 1's RCAS (public formulas): a 5-tap cross whose
// negative lobe is as strong as u_sharpen asks but never so strong that the result leaves
// the neighbours' range (no clipping, little ringing).
out vec4 frag;
uniform sampler2D src;
uniform float u_sharpen;  // 0: off .. 1: the strongest

const float LIMIT = 0.25 - 1.0 / 16.0;

void main() {
    ivec2 p = ivec2(gl_FragCoord.xy);
    ivec2 lim = textureSize(src, 0) - 1;
    vec3 b = texelFetch(src, clamp(p + ivec2(0, -1), ivec2(0), lim), 0).rgb;
    vec3 d = texelFetch(src, clamp(p + ivec2(-1, 0), ivec2(0), lim), 0).rgb;
    vec3 e = texelFetch(src, p, 0).rgb;
    vec3 f = texelFetch(src, clamp(p + ivec2(1, 0), ivec2(0), lim), 0).rgb;
    vec3 h = texelFetch(src, clamp(p + ivec2(0, 1), ivec2(0), lim), 0).rgb;
    vec3 mn = min(min(b, d), min(f, h));
    vec3 mx = max(max(b, d), max(f, h));
    vec3 hit_min = min(mn, e) / max(4.0 * mx, 1e-5);
    vec3 hit_max = (1.0 - max(mx, e)) / min(4.0 * mn - 4.0, -1e-5);
    vec3 lobe3 = max(-hit_min, hit_max);
    float lobe = max(-LIMIT, min(max(lobe3.r, max(lobe3.g, lobe3.b)), 0.0)) * u_sharpen;
    vec3 c = (lobe * (b + d + f + h) + e) / (4.0 * lobe + 1.0);
    frag = vec4(clamp(c, 0.0, 1.0), 1.0);
}
