// Colour conversions. Textures hold sRGB-encoded values in [0,1] unless a name says otherwise;
// CIELab is computed from linear light (D65 white), L in 0..100.

float srgb_to_linear1(float c) {
    return c <= 0.04045 ? c / 12.92 : pow((c + 0.055) / 1.055, 2.4);
}

float linear_to_srgb1(float c) {
    return c <= 0.0031308 ? c * 12.92 : 1.055 * pow(c, 1.0 / 2.4) - 0.055;
}

vec3 srgb_to_linear(vec3 c) {
    c = clamp(c, 0.0, 1.0);
    return vec3(srgb_to_linear1(c.r), srgb_to_linear1(c.g), srgb_to_linear1(c.b));
}

vec3 linear_to_srgb(vec3 c) {
    c = clamp(c, 0.0, 1.0);
    return vec3(linear_to_srgb1(c.r), linear_to_srgb1(c.g), linear_to_srgb1(c.b));
}

const vec3 D65_WHITE = vec3(0.95047, 1.0, 1.08883);

float lab_f(float t) {
    return t > 0.008856452 ? pow(t, 1.0 / 3.0) : t / 0.128418549 + 0.137931034;
}

float lab_finv(float t) {
    return t > 0.206896552 ? t * t * t : 0.128418549 * (t - 0.137931034);
}

vec3 srgb_to_lab(vec3 srgb) {
    vec3 c = srgb_to_linear(srgb);
    vec3 xyz = mat3(0.4124564, 0.2126729, 0.0193339,
                    0.3575761, 0.7151522, 0.1191920,
                    0.1804375, 0.0721750, 0.9503041) * c / D65_WHITE;
    vec3 f = vec3(lab_f(xyz.x), lab_f(xyz.y), lab_f(xyz.z));
    return vec3(116.0 * f.y - 16.0, 500.0 * (f.x - f.y), 200.0 * (f.y - f.z));
}

vec3 lab_to_srgb(vec3 lab) {
    float fy = (lab.x + 16.0) / 116.0;
    vec3 xyz = D65_WHITE * vec3(lab_finv(fy + lab.y / 500.0), lab_finv(fy),
                                lab_finv(fy - lab.z / 200.0));
    vec3 c = mat3(3.2404542, -0.9692660, 0.0556434,
                  -1.5371385, 1.8760108, -0.2040259,
                  -0.4985314, 0.0415560, 1.0572252) * xyz;
    return linear_to_srgb(c);
}

float luma(vec3 srgb) {
    return dot(srgb, vec3(0.2126, 0.7152, 0.0722));
}
