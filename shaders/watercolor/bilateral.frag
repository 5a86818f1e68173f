#version 330 core
// Orientation-aligned bilateral filter (Kyprianidis & Döllner 2008), one of its two 1-D
// passes: across the flow (along the gradient) or along it. Works in CIELab. Washes are
// abstracted at half the work size; the subject (saliency) keeps more of its drawing: its
// colour and spatial sigmas shrink by the detail level.
// tiles: reach ceil(2 * u_sigma_d * u_px * u_target_scale)
// (its MAX_STEPS of `stride` texels always cover 2 sigma_d since the stride grows with sigma)
#include "common/flow.glsl"
out vec4 frag;
uniform sampler2D src;   // Lab
uniform sampler2D tfm;   // nearest
uniform sampler2D saliency;
uniform int u_axis;      // 0: along the gradient, 1: along the tangent
uniform float u_sigma_d;
uniform float u_sigma_r;
uniform float u_detail;
uniform float u_target_scale;   // of the work size
uniform float u_px;             // work px per reference px

const int MAX_STEPS = 32;
const float STRIDE_SIGMA = 1.8;  // texels of sigma_d per texel of stride

void main() {
    vec2 size = vec2(textureSize(src, 0));
    vec2 p = gl_FragCoord.xy;
    vec2 t = flow_at(tfm, p / size);
    float keep = u_detail * texture(saliency, p / size).x;
    float sigma_d = u_sigma_d * u_px * u_target_scale * (1.0 - 0.5 * keep);  // ref px -> these px
    float sigma_r = u_sigma_r * (1.0 - 0.7 * keep);
    vec2 dir = u_axis == 0 ? vec2(t.y, -t.x) : t;
    // Step so that each sample advances `stride` texels along the dominant axis: one, until
    // the kernel is wide (a big frame's, whose reach follows the reference frame) and a
    // sample every few texels weighs it as well (a 4K frame's taps were twice a 1080p
    // frame's on four times its pixels: a third of an H200's frame in these two passes).
    float stride = max(1.0, floor(sigma_d / STRIDE_SIGMA));
    float ds = stride / max(abs(dir.x), abs(dir.y));
    vec2 inv = 1.0 / size;
    vec2 uv0 = p * inv;
    vec2 duv = dir * inv;
    vec3 c0 = texture(src, uv0).xyz;
    vec3 sum = c0;
    float norm = 1.0;
    float reach = 2.0 * sigma_d;
    float inv_r = 1.0 / (2.0 * sigma_r * sigma_r);
    // Spatial weights exp(-s^2 / 2 sigma_d^2) at s = i ds by recurrence: kd_i = kd_(i-1) q_i,
    // q_i = q_(i-1) r^2, r = exp(-ds^2 / 2 sigma_d^2) (saves an exp per step).
    float r = gauss(ds, sigma_d);
    float q = r;
    float kd = 1.0;
    for (int i = 1; i <= MAX_STEPS; i++) {
        float s = float(i) * ds;
        if (s > reach) break;
        kd *= q;
        q *= r * r;
        vec3 c1 = texture(src, uv0 + s * duv).xyz;
        vec3 c2 = texture(src, uv0 - s * duv).xyz;
        float k1 = kd * exp(-dot(c1 - c0, c1 - c0) * inv_r);
        float k2 = kd * exp(-dot(c2 - c0, c2 - c0) * inv_r);
        sum += k1 * c1 + k2 * c2;
        norm += k1 + k2;
    }
    frag = vec4(sum / norm, 1.0);
}
