#version 330 core
// Structure tensor (E, F, G) = sum over RGB of (gx*gx, gx*gy, gy*gy), Sobel/4 gradients per
// work pixel, replicated borders. The tensor may be smaller than the work frame: taps are
// bilinear lookups one target texel apart, so a half-size tensor sees the image box-filtered
// 2x2 (its gradients rescaled to work pixels). Flat pixels (|g|^2 < tau^2) carry no
// direction: tensor 0, weight .w 0, filled in later by pull-push.
// tiles: reach 1
out vec4 frag;
uniform sampler2D src;
uniform float u_flat_threshold;
uniform vec2 u_resolution;     // this target's size
uniform float u_target_scale;  // of the work size

vec3 px(vec2 uv) {
    return texture(src, clamp(uv, vec2(0.0), vec2(1.0))).rgb;
}

void main() {
    vec2 d = 1.0 / u_resolution;
    vec2 uv = gl_FragCoord.xy * d;
    // Clamp the tap centres to the border texel centres (replicated borders).
    vec2 lo = 0.5 * d, hi = 1.0 - lo;
    vec3 a = px(clamp(uv + vec2(-d.x, -d.y), lo, hi)), b = px(clamp(uv + vec2(0.0, -d.y), lo, hi));
    vec3 c = px(clamp(uv + vec2(d.x, -d.y), lo, hi)), f = px(clamp(uv + vec2(d.x, 0.0), lo, hi));
    vec3 e = px(clamp(uv + vec2(-d.x, 0.0), lo, hi)), g = px(clamp(uv + vec2(-d.x, d.y), lo, hi));
    vec3 h = px(clamp(uv + vec2(0.0, d.y), lo, hi)), i = px(clamp(uv + vec2(d.x, d.y), lo, hi));
    vec3 gx = (c + 2.0 * f + i - a - 2.0 * e - g) * (0.25 * u_target_scale);
    vec3 gy = (g + 2.0 * h + i - a - 2.0 * b - c) * (0.25 * u_target_scale);
    vec3 t = vec3(dot(gx, gx), dot(gx, gy), dot(gy, gy));
    float valid = (t.x + t.z) >= u_flat_threshold * u_flat_threshold ? 1.0 : 0.0;
    frag = vec4(t * valid, valid);
}
