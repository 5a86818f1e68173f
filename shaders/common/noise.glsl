// Seeded, deterministic noise from an integer hash (PCG): same seed and position -> same value
// on every run.

uint pcg_hash(uint v) {
    uint state = v * 747796405u + 2891336453u;
    uint word = ((state >> ((state >> 28u) + 4u)) ^ state) * 277803737u;
    return (word >> 22u) ^ word;
}

// A per-layer key from the seed and a salt that separates noise layers.
uint noise_key(int seed, int salt) {
    return pcg_hash(uint(seed) * 16u + uint(salt));
}

// Uniform in [0,1) for an integer lattice point and a layer key.
float hash_key(ivec2 p, uint key) {
    uint h = pcg_hash(uint(p.x) * 1597334677u ^ uint(p.y) * 3812015801u ^ key);
    return float(h >> 8) / 16777216.0;
}

// Smoothly interpolated value noise in [0,1]; `p` in lattice units.
float value_noise(vec2 p, int seed, int salt) {
    uint key = noise_key(seed, salt);
    vec2 i = floor(p);
    vec2 f = p - i;
    vec2 u = f * f * (3.0 - 2.0 * f);
    ivec2 ii = ivec2(i);
    float a = hash_key(ii, key);
    float b = hash_key(ii + ivec2(1, 0), key);
    float c = hash_key(ii + ivec2(0, 1), key);
    float d = hash_key(ii + ivec2(1, 1), key);
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
