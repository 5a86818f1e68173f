// Bousseau et al. 2006 pigment-density model on colour values in [0,1]:
// C' = C (1 - (1 - C)(d - 1)); d = 1 keeps the colour, d > 1 is denser, d < 1 lighter.
vec3 pigment(vec3 c, float d) {
    return clamp(c * (1.0 - (1.0 - c) * (d - 1.0)), 0.0, 1.0);
}

// The density a grey texture value T in [0,1] with weight beta contributes.
float density(float T, float beta) {
    return 1.0 + beta * (T - 0.5);
}
