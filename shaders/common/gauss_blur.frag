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
    // Weights exp(-k^2 / 2 sigma^2) by recurrence (w_k = w_(k-1) q_k, q_k = q_(k-1) g^2,
    // g = exp(-1 / 2 sigma^2)): no exp per tap.
    float g = exp(-1.0 / (2.0 * u_sigma * u_sigma));
    float q = g;
    float w = 1.0;
    vec4 sum = texelFetch(src, p, 0);
    float norm = 1.0;
    for (int k = 1; k <= MAX_RADIUS; k++) {
        if (k > r) break;
        w *= q;
        q *= g * g;
        sum += w * (texelFetch(src, clamp(p + k * step, ivec2(0), last), 0)
                    + texelFetch(src, clamp(p - k * step, ivec2(0), last), 0));
        norm += 2.0 * w;
    }
    frag = sum / norm;
}
