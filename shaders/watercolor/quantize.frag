#version 330 core
// Wash tones: soft luminance quantization (Winnemöller et al. 2006) of the abstracted Lab
// image into n levels, like the layers of a watercolor laid light to dark. Away from the
// subject (saliency) the tones follow a widely blurred copy, so the background dissolves into
// large washes. Steps are crisp where the tone changes fast and soft in smooth gradients
// (graded washes, no contour bands; Winnemöller's gradient-adaptive sharpness). The
// thresholds wander with smooth noise (hand tremor on the borders, moving with the content),
// the lightest tones are reserved as bare paper, and the colours are more saturated.
out vec4 frag;
uniform sampler2D src;        // Lab, abstracted
uniform sampler2D coarse;     // Lab, widely blurred (smaller target)
uniform sampler2D wash;       // low-frequency noise; .w moves the tone thresholds
uniform sampler2D saliency;
uniform int u_quantize_levels;
uniform float u_quantize_sharpness;
uniform float u_tremor;
uniform float u_highlights;
uniform float u_detail;
uniform float u_saturation;
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
    // Tone change per reference pixel (L units): decides how crisp the steps are.
    vec2 g = vec2(lum(ip + ivec2(1, 0)) - lum(ip - ivec2(1, 0)),
                  lum(ip + ivec2(0, 1)) - lum(ip - ivec2(0, 1))) * 0.5;
    float slope = length(g) / (u_target_scale * u_px);
    float sharp = u_quantize_sharpness * mix(0.04, 1.0, smoothstep(0.2, 1.5, slope));
    float n = float(u_quantize_levels);
    float shift = u_tremor * 2.5 * (texture(wash, uv).w - 0.5);  // in tone steps
    float L = lab.x / 100.0 + shift / n;
    float qn = floor(L * n + 0.5) / n;
    float q = qn + (smoothstep(-2.0, 2.0, sharp * 100.0 * (L - qn)) - 0.5) / n;
    q = mix(q, lab.x / 100.0, 0.5 * subject);
    // Highlights: above the threshold the paper is left bare (no pigment, no colour); less
    // on the subject, where a bare patch would punch a hole in a face.
    float bare = 0.0;
    if (u_highlights > 0.0) {
        float thr = 1.0 - 0.25 * u_highlights * (1.0 - 0.6 * subject);
        float soft = 0.5 / (sharp * 25.0);
        bare = smoothstep(thr - soft, thr + soft, L);
    }
    q = mix(clamp(q, 0.0, 1.0), 1.0, bare);
    frag = vec4(q * 100.0, lab.yz * u_saturation * (1.0 - bare), 1.0);
}
