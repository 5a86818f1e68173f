#version 330 core
// Edge-preserving bilateral filter as cv2.bilateralFilter computes it: a circular window of
// radius round(1.5 sigma_space) (half to even), spatial weight exp(-r^2 / 2 sigma_space^2),
// colour weight exp(-d^2 / 2 sigma_color^2) with d the sum of the channels' absolute
// differences in 8-bit units (replicated borders). Sizes in source px.
// tiles: reach min(12, ceil(1.5 * max(u_sigma_space, 0)))
out vec4 frag;
uniform sampler2D src;
uniform float u_sigma_space;
uniform float u_sigma_color;

const int MAX_RADIUS = 12;

void main() {
    ivec2 p = ivec2(gl_FragCoord.xy);
    ivec2 lim = textureSize(src, 0) - 1;
    vec3 c0 = texelFetch(src, p, 0).rgb;
    if (u_sigma_space <= 0.0 || u_sigma_color <= 0.0) {
        frag = vec4(c0, 1.0);
        return;
    }
    int r = min(MAX_RADIUS, int(roundEven(1.5 * u_sigma_space)));  // as cvRound
    float ks = -0.5 / (u_sigma_space * u_sigma_space);
    float kc = -0.5 / (u_sigma_color * u_sigma_color);
    vec3 sum = vec3(0.0);
    float norm = 0.0;
    for (int j = -MAX_RADIUS; j <= MAX_RADIUS; j++) {
        if (abs(j) > r) continue;
        for (int i = -MAX_RADIUS; i <= MAX_RADIUS; i++) {
            if (abs(i) > r || i * i + j * j > r * r) continue;
            vec3 c = texelFetch(src, clamp(p + ivec2(i, j), ivec2(0), lim), 0).rgb;
            vec3 d3 = abs(c - c0) * 255.0;
            float d = d3.r + d3.g + d3.b;
            float w = exp(float(i * i + j * j) * ks + d * d * kc);
            sum += w * c;
            norm += w;
        }
    }
    frag = vec4(sum / norm, 1.0);
}
