// The learned x2 filters' core (RAISR / RAVU style; app/upscale/learned.py is the numpy twin
// and the trainer). Each output pixel X takes the 6x6 low-resolution window around it; the
// angle, strength and coherence of the window's weighted gradient tensor and the pixel's
// phase (its position mod 2) pick one of the filters in `filters` (row 0: thresholds;
// row 1 + bucket * 4 + phase: 36 weights). The includer defines the value being enlarged:
//     float lr_value(ivec2 q);   // at low-resolution texel q, already clamped to the texture
// and passes the low-resolution size. lo/hi: the range of the 2x2 nearest inputs (for an
// anti-ringing clamp).

const float LEARNED_PI = 3.14159265358979;
const int LEARNED_ANGLES = 16;
const vec4 LEARNED_TENSOR_W = vec4(0.21626517, 0.7548396, 0.96923323, 0.45783336);

// The filter row of a pixel of phase ph (its position mod 2) whose weighted gradient
// tensor is [a b; b c]: angle, strength and coherence buckets.
int learned_row(sampler2D filters, float a, float b, float c, ivec2 ph) {
    float root = sqrt((a - c) * (a - c) + 4.0 * b * b);
    float l1 = 0.5 * (a + c + root);
    float l2 = max(0.5 * (a + c - root), 0.0);
    float angle = abs(2.0 * b) + abs(a - c) > 0.0
        ? mod(0.5 * atan(2.0 * b, a - c), LEARNED_PI) : 0.0;
    float s1 = sqrt(l1), s2 = sqrt(l2);
    float coherence = s1 + s2 > 1e-12 ? (s1 - s2) / (s1 + s2) : 0.0;
    vec4 th = texelFetch(filters, ivec2(0, 0), 0);  // strength s1 < s2, coherence c1 < c2
    int ai = min(int(angle / LEARNED_PI * float(LEARNED_ANGLES)), LEARNED_ANGLES - 1);
    int si = int(s1 >= th.x) + int(s1 >= th.y);
    int ci = int(coherence >= th.z) + int(coherence >= th.w);
    return 1 + ((ai * 3 + si) * 3 + ci) * 4 + ph.y * 2 + ph.x;
}

// The tensor's Gaussian (sigma 1) around a pixel of phase p along one axis: separable,
// exp(-(i - 1 - f)^2 / 2) over the central four gradients, f = 0.75 at phase 0 and 0.25
// (the mirror) at phase 1.
vec4 learned_tensor_w(int p) {
    return p == 0 ? LEARNED_TENSOR_W : LEARNED_TENSOR_W.wzyx;
}

// The filter of one output pixel of phase ph from its 6x6 window.
float learned_filter(sampler2D filters, float win[36], ivec2 ph, out float lo, out float hi) {
    vec4 wx = learned_tensor_w(ph.x), wy = learned_tensor_w(ph.y);
    float a = 0.0, b = 0.0, c = 0.0;
    for (int j = 0; j < 4; j++) {
        for (int i = 0; i < 4; i++) {
            float gx = (win[(j + 1) * 6 + i + 2] - win[(j + 1) * 6 + i]) * 0.5;
            float gy = (win[(j + 2) * 6 + i + 1] - win[j * 6 + i + 1]) * 0.5;
            float w = wx[i] * wy[j];
            a += w * gx * gx;
            b += w * gx * gy;
            c += w * gy * gy;
        }
    }
    int row = learned_row(filters, a, b, c, ph);
    float y = 0.0;
    for (int k = 0; k < 9; k++) {
        vec4 w = texelFetch(filters, ivec2(k, row), 0);
        y += w.x * win[4 * k] + w.y * win[4 * k + 1] + w.z * win[4 * k + 2]
           + w.w * win[4 * k + 3];
    }
    lo = min(min(win[14], win[15]), min(win[20], win[21]));
    hi = max(max(win[14], win[15]), max(win[20], win[21]));
    return y;
}

float learned_x2(sampler2D filters, ivec2 X, ivec2 lr_size, out float lo, out float hi) {
    ivec2 ph = X & 1;
    ivec2 base = (X >> 1) - 1 + ph;  // the low-resolution pixel at or before this one
    ivec2 lim = lr_size - 1;
    float win[36];
    for (int j = 0; j < 6; j++) {
        for (int i = 0; i < 6; i++) {
            win[j * 6 + i] = lr_value(clamp(base + ivec2(i - 2, j - 2), ivec2(0), lim));
        }
    }
    return learned_filter(filters, win, ph, lo, hi);
}

// One phase of learned_x2_quad: its 6x6 window starts at big's ph (called with constant
// phases, so that every index is a constant: a CPU renderer spills dynamically indexed
// arrays to memory).
float learned_quad_phase(sampler2D filters, float big[49], ivec2 ph, out float lo,
                         out float hi) {
    float win[36];
    for (int j = 0; j < 6; j++) {
        for (int i = 0; i < 6; i++) {
            win[j * 6 + i] = big[(j + ph.y) * 7 + i + ph.x];
        }
    }
    return learned_filter(filters, win, ph, lo, hi);
}

// The four output pixels of low-resolution pixel c at once, phases (0,0), (1,0), (0,1),
// (1,1) in x, y, z, w: their 6x6 windows share one 7x7 (49 reads instead of 4 x 36).
vec4 learned_x2_quad(sampler2D filters, ivec2 c, ivec2 lr_size, out vec4 lo, out vec4 hi) {
    ivec2 lim = lr_size - 1;
    float big[49];
    for (int j = 0; j < 7; j++) {
        for (int i = 0; i < 7; i++) {
            big[j * 7 + i] = lr_value(clamp(c + ivec2(i - 3, j - 3), ivec2(0), lim));
        }
    }
    vec4 y;
    y.x = learned_quad_phase(filters, big, ivec2(0, 0), lo.x, hi.x);
    y.y = learned_quad_phase(filters, big, ivec2(1, 0), lo.y, hi.y);
    y.z = learned_quad_phase(filters, big, ivec2(0, 1), lo.z, hi.z);
    y.w = learned_quad_phase(filters, big, ivec2(1, 1), lo.w, hi.w);
    return y;
}
