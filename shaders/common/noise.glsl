// Seeded, deterministic noise from an integer hash (PCG): same seed and position -> same value
// on every run.

uint pcg_hash(uint v) {
    uint state = v * 747796405u + 2891336453u;
    uint word = ((state >> ((state >> 28u) + 4u)) ^ state) * 277803737u;
    return (word >> 22u) ^ word;
}

// Uniform in [0,1) for an integer lattice point and a seed; `salt` separates noise layers.
float hash2(ivec2 p, int seed, int salt) {
    uint h = pcg_hash(uint(p.x) ^ pcg_hash(uint(p.y) ^ pcg_hash(uint(seed) * 16u + uint(salt))));
    return float(h >> 8) / 16777216.0;
}

// Smoothly interpolated value noise in [0,1]; `p` in lattice units.
float value_noise(vec2 p, int seed, int salt) {
    vec2 i = floor(p);
    vec2 f = p - i;
    vec2 u = f * f * (3.0 - 2.0 * f);
    ivec2 ii = ivec2(i);
    float a = hash2(ii, seed, salt);
    float b = hash2(ii + ivec2(1, 0), seed, salt);
    float c = hash2(ii + ivec2(0, 1), seed, salt);
    float d = hash2(ii + ivec2(1, 1), seed, salt);
    return mix(mix(a, b, u.x), mix(c, d, u.x), u.y);
}

const int FBM_MAX_OCTAVES = 8;

// Fractional Brownian motion of value noise, normalized to [0,1]; persistence 0.5.
float fbm(vec2 p, int octaves, int seed, int salt) {
    float sum = 0.0;
    float amp = 0.5;
    float norm = 0.0;
    for (int i = 0; i < FBM_MAX_OCTAVES; i++) {
        if (i >= octaves) break;
        sum += amp * value_noise(p, seed, salt + i);
        norm += amp;
        p *= 2.0;
        amp *= 0.5;
    }
    return sum / max(norm, 1e-6);
}
