// Edge-adaptive spatial upsampling after AMD FidelityFX FSR 1's EASU (formulas from its
// public description; no code copied): 12 taps around the position, a Lanczos-2-like
// kernel stretched along the local edge direction (estimated from the luma gradients of the
// four nearest texels), clamped to the nearest 2x2 texels' range (no ringing).

float easu_luma(vec3 c) {
    return dot(c, vec3(0.299, 0.587, 0.114));
}

vec3 easu_tap(sampler2D src, ivec2 p, ivec2 lim) {
    return texelFetch(src, clamp(p, ivec2(0), lim), 0).rgb;
}

// Direction and edge length from one texel's '+' neighbourhood, weighted (FSR's EasuSet).
void easu_edge(inout vec2 dir, inout float len, float w, float up, float left, float centre,
               float right, float down) {
    float dc = right - centre, cb = centre - left;
    float lx = max(abs(dc), abs(cb));
    float dx = right - left;
    lx = lx > 0.0 ? clamp(abs(dx) / lx, 0.0, 1.0) : 0.0;
    float dd = down - centre, uc = centre - up;
    float ly = max(abs(dd), abs(uc));
    float dy = down - up;
    ly = ly > 0.0 ? clamp(abs(dy) / ly, 0.0, 1.0) : 0.0;
    dir += vec2(dx, dy) * w;
    len += (lx * lx + ly * ly) * w;
}

void easu_accumulate(inout vec3 sum, inout float wsum, vec2 off, vec2 dir, vec2 len2,
                     float lob, float clp, vec3 c) {
    vec2 v = vec2(off.x * dir.x + off.y * dir.y, -off.x * dir.y + off.y * dir.x) * len2;
    float d2 = min(dot(v, v), clp);
    float wb = 0.4 * d2 - 1.0;
    float wa = lob * d2 - 1.0;
    float w = (25.0 / 16.0 * wb * wb - (25.0 / 16.0 - 1.0)) * (wa * wa);
    sum += c * w;
    wsum += w;
}

// The picture in `src` at output pixel `frag_coord` of an output of `out_size`.
vec3 easu(sampler2D src, vec2 frag_coord, vec2 out_size) {
    vec2 in_size = vec2(textureSize(src, 0));
    ivec2 lim = ivec2(in_size) - 1;
    vec2 pp = frag_coord * (in_size / out_size) - 0.5;
    vec2 fp = floor(pp);
    vec2 t = pp - fp;
    ivec2 o = ivec2(fp);
    //    b c
    //  e f g h
    //  i j k l
    //    n o
    vec3 B = easu_tap(src, o + ivec2(0, -1), lim), C = easu_tap(src, o + ivec2(1, -1), lim);
    vec3 E = easu_tap(src, o + ivec2(-1, 0), lim), F = easu_tap(src, o, lim);
    vec3 G = easu_tap(src, o + ivec2(1, 0), lim), H = easu_tap(src, o + ivec2(2, 0), lim);
    vec3 I = easu_tap(src, o + ivec2(-1, 1), lim), J = easu_tap(src, o + ivec2(0, 1), lim);
    vec3 K = easu_tap(src, o + ivec2(1, 1), lim), L = easu_tap(src, o + ivec2(2, 1), lim);
    vec3 N = easu_tap(src, o + ivec2(0, 2), lim), O = easu_tap(src, o + ivec2(1, 2), lim);
    float b = easu_luma(B), c = easu_luma(C), e = easu_luma(E), f = easu_luma(F), g = easu_luma(G), h = easu_luma(H);
    float i = easu_luma(I), j = easu_luma(J), k = easu_luma(K), l = easu_luma(L), n = easu_luma(N), oo = easu_luma(O);
    vec2 dir = vec2(0.0);
    float len = 0.0;
    easu_edge(dir, len, (1.0 - t.x) * (1.0 - t.y), b, e, f, g, j);
    easu_edge(dir, len, t.x * (1.0 - t.y), c, f, g, h, k);
    easu_edge(dir, len, (1.0 - t.x) * t.y, f, i, j, k, n);
    easu_edge(dir, len, t.x * t.y, g, j, k, l, oo);
    float d2 = dot(dir, dir);
    dir = d2 < 1.0 / 32768.0 ? vec2(1.0, 0.0) : dir * inversesqrt(d2);
    len = 0.5 * len;
    len *= len;
    float stretch = 1.0 / (max(abs(dir.x), abs(dir.y)) * max(abs(dir.x), abs(dir.y)));
    vec2 len2 = vec2(1.0 + (stretch - 1.0) * len, 1.0 - 0.5 * len);
    float lob = 0.5 + ((1.0 / 4.0 - 0.04) - 0.5) * len;
    float clp = 1.0 / lob;
    vec3 sum = vec3(0.0);
    float wsum = 0.0;
    easu_accumulate(sum, wsum, vec2(0.0, -1.0) - t, dir, len2, lob, clp, B);
    easu_accumulate(sum, wsum, vec2(1.0, -1.0) - t, dir, len2, lob, clp, C);
    easu_accumulate(sum, wsum, vec2(-1.0, 1.0) - t, dir, len2, lob, clp, I);
    easu_accumulate(sum, wsum, vec2(0.0, 1.0) - t, dir, len2, lob, clp, J);
    easu_accumulate(sum, wsum, vec2(0.0, 0.0) - t, dir, len2, lob, clp, F);
    easu_accumulate(sum, wsum, vec2(-1.0, 0.0) - t, dir, len2, lob, clp, E);
    easu_accumulate(sum, wsum, vec2(1.0, 1.0) - t, dir, len2, lob, clp, K);
    easu_accumulate(sum, wsum, vec2(2.0, 1.0) - t, dir, len2, lob, clp, L);
    easu_accumulate(sum, wsum, vec2(2.0, 0.0) - t, dir, len2, lob, clp, H);
    easu_accumulate(sum, wsum, vec2(1.0, 0.0) - t, dir, len2, lob, clp, G);
    easu_accumulate(sum, wsum, vec2(1.0, 2.0) - t, dir, len2, lob, clp, O);
    easu_accumulate(sum, wsum, vec2(0.0, 2.0) - t, dir, len2, lob, clp, N);
    vec3 lo = min(min(F, G), min(J, K));
    vec3 hi = max(max(F, G), max(J, K));
    return clamp(sum / wsum, lo, hi);
}
