#version 330 core
// One direction of a separable Gaussian blur (radius ceil(2.45 sigma), replicated borders).
out vec4 frag;
uniform sampler2D src;
uniform vec2 u_dir;      // (1,0) or (0,1)
uniform float u_sigma;

const int MAX_RADIUS = 32;

void main() {
    ivec2 p = ivec2(gl_FragCoord.xy);
    ivec2 last = textureSize(src, 0) - 1;
    if (u_sigma <= 0.0) {
        frag = texelFetch(src, p, 0);
        return;
    }
    int r = min(MAX_RADIUS, int(ceil(2.45 * u_sigma)));
    ivec2 step = ivec2(u_dir);
    vec4 sum = vec4(0.0);
    float norm = 0.0;
    for (int i = 0; i <= 2 * MAX_RADIUS; i++) {
        if (i > 2 * r) break;
        int k = i - r;
        float w = exp(-float(k * k) / (2.0 * u_sigma * u_sigma));
        sum += w * texelFetch(src, clamp(p + k * step, ivec2(0), last), 0);
        norm += w;
    }
    frag = sum / norm;
}
