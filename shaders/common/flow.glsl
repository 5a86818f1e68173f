// Flow-field helpers shared by the passes that walk along the tangent flow map (TFM).
// The TFM holds the unit tangent in .xy and the anisotropy in .z; sample it with NEAREST
// filtering, since neighbouring tangents may point opposite ways. It may be smaller than the
// work frame, so it is looked up by position (uv), never by texel.

vec2 flow_at(sampler2D tfm, vec2 uv) {
    return texture(tfm, uv).xy;
}

float gauss(float x, float sigma) {
    return exp(-(x * x) / (2.0 * sigma * sigma));
}

const int LIC_MAX_STEPS = 24;

// Line integral convolution (Cabral & Leedom): Gaussian-weighted mean of `img` along the
// streamline through uv, two RK2 walkers with sign fix, arc length 2 sigma. Positions, sigma
// and the step h are in work pixels (`work` = the work frame's size); a pass at half size
// steps two work pixels, one of its own. Also returns the sum of squared normalized weights
// (for contrast renormalization).
// lic_coherence also returns the flow's anisotropy (the TFM's .z) averaged with the same
// weights along the streamline: how strand-like the flow is there.
vec4 lic_coherence(sampler2D img, sampler2D tfm, vec2 uv, vec2 work, float sigma, float h,
                   out float w2_norm, out float coherence) {
    vec2 inv = 1.0 / work;
    vec2 p0 = uv * work;
    vec4 sum = texture(img, uv);
    float w_sum = 1.0;
    float w2_sum = 1.0;
    float reach = 2.0 * sigma;
    float inv_two_sigma2 = 1.0 / (2.0 * sigma * sigma);
    vec3 f0 = texture(tfm, uv).xyz;
    vec2 t0 = f0.xy;
    float a_sum = f0.z;
    for (int side = 0; side < 2; side++) {
        vec2 v = side == 0 ? t0 : -t0;
        vec2 p = p0;
        for (int i = 1; i <= LIC_MAX_STEPS; i++) {
            float s = float(i) * h;
            if (s > reach) break;
            // RK2 with the previous midpoint direction standing in for the tangent at p
            // (one flow lookup per step instead of two).
            vec3 fm = texture(tfm, (p + 0.5 * h * v) * inv).xyz;
            vec2 tm = fm.xy;
            if (dot(tm, v) < 0.0) tm = -tm;
            p += h * tm;
            if (any(lessThan(p, vec2(0.0))) || any(greaterThanEqual(p, work))) break;
            v = tm;
            float w = exp(-s * s * inv_two_sigma2);
            sum += w * texture(img, p * inv);
            a_sum += w * fm.z;
            w_sum += w;
            w2_sum += w * w;
        }
    }
    w2_norm = w2_sum / (w_sum * w_sum);
    coherence = a_sum / w_sum;
    return sum / w_sum;
}

vec4 lic(sampler2D img, sampler2D tfm, vec2 uv, vec2 work, float sigma, float h,
         out float w2_norm) {
    float coherence;
    return lic_coherence(img, tfm, uv, work, sigma, h, w2_norm, coherence);
}
