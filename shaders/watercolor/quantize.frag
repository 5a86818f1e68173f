#version 330 core
// Soft luminance quantization (Winnemöller et al. 2006) of a Lab image: n levels with
// smooth steps, which stay stable from frame to frame.
out vec4 frag;
uniform sampler2D src;   // Lab
uniform int u_quantize_levels;
uniform float u_quantize_sharpness;

void main() {
    vec4 lab = texelFetch(src, ivec2(gl_FragCoord.xy), 0);
    float n = float(u_quantize_levels);
    float L = lab.x / 100.0;
    float qn = floor(L * n + 0.5) / n;
    float q = qn + (smoothstep(-2.0, 2.0, u_quantize_sharpness * 100.0 * (L - qn)) - 0.5) / n;
    frag = vec4(clamp(q, 0.0, 1.0) * 100.0, lab.yz, 1.0);
}
