// A 3D colour look-up table stored as a 2D texture N*N wide and N high (blue slices side by
// side, red across a slice, green down): bilinear within the two nearest blue slices (the
// texture unit's filtering), linear between them. Entries sit at texel centres.
vec3 lut3d(sampler2D table, int n, vec3 c) {
    float fn = float(n);
    vec3 x = clamp(c, 0.0, 1.0) * (fn - 1.0);
    float b0 = min(floor(x.b), fn - 2.0);
    float fb = x.b - b0;
    vec2 size = vec2(fn * fn, fn);
    vec2 rg = vec2(x.r + 0.5, x.g + 0.5);
    vec3 lo = texture(table, (rg + vec2(b0 * fn, 0.0)) / size).rgb;
    vec3 hi = texture(table, (rg + vec2((b0 + 1.0) * fn, 0.0)) / size).rgb;
    return mix(lo, hi, fb);
}
