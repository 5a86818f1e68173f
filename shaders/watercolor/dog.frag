#version 330 core
// Flow-based difference of Gaussians across the flow (Winnemöller et al. 2012):
// D = (1 + p) G_sigma(L) - p G_(k sigma)(L), sampled along the gradient direction, in work
// pixels (the Lab image may be smaller: it is sampled by position).
// tiles: reach min(32, floor(2 * u_outline_k * u_outline_sigma))
#include "common/flow.glsl"
out vec4 frag;
uniform sampler2D lab;
uniform sampler2D tfm;   // nearest
uniform float u_outline_sigma;
uniform float u_outline_k;
uniform float u_outline_p;
uniform vec2 u_resolution;   // the work size

const int MAX_STEPS = 32;

void main() {
    vec2 size = u_resolution;
    vec2 p = gl_FragCoord.xy;
    vec2 t = flow_at(tfm, p / size);
    vec2 n = vec2(t.y, -t.x);
    float s1 = u_outline_sigma;
    float s2 = u_outline_k * u_outline_sigma;
    float L0 = texture(lab, p / size).x;
    vec2 sum = vec2(L0);
    vec2 norm = vec2(1.0);
    for (int i = 1; i <= MAX_STEPS; i++) {
        float s = float(i);
        if (s > 2.0 * s2) break;
        float L = texture(lab, (p + s * n) / size).x + texture(lab, (p - s * n) / size).x;
        vec2 w = vec2(gauss(s, s1), gauss(s, s2));
        sum += w * L;
        norm += 2.0 * w;
    }
    vec2 g = sum / norm;
    frag = vec4((1.0 + u_outline_p) * g.x - u_outline_p * g.y, 0.0, 0.0, 1.0);
}
