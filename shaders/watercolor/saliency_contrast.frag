#version 330 core
// Saliency, step 2: colour contrast of each block against its surround at two radii and
// against the frame's mean colour (centre-surround and frequency-tuned saliency, Itti 1998 /
// Achanta 2009), weighted by a centre prior: what stands out, near the middle, is the subject.
// Skin tones (.z) count on their own (faces are what viewers look at first, and webcams show faces).
out vec4 frag;
#include "watercolor/skin.glsl"
uniform sampler2D small;   // mean Lab per block
uniform vec2 u_resolution;

const int RING = 8;
const int GRID = 8;

vec3 weighted(vec3 lab) {
    return vec3(lab.x, 1.5 * lab.yz);  // colour differences count more than brightness
}

vec3 ring_mean(vec2 uv, float radius, vec2 aspect) {
    vec3 sum = vec3(0.0);
    for (int k = 0; k < RING; k++) {
        float a = 6.2831853 * (float(k) + 0.5) / float(RING);
        sum += texture(small, clamp(uv + radius * aspect * vec2(cos(a), sin(a)), 0.0, 1.0)).xyz;
    }
    return sum / float(RING);
}

void main() {
    vec2 uv = gl_FragCoord.xy / u_resolution;
    vec2 aspect = vec2(u_resolution.y / u_resolution.x, 1.0);  // circles, not ellipses
    vec3 c = texture(small, uv).xyz;
    vec3 mean = vec3(0.0);
    for (int j = 0; j < GRID; j++) {
        for (int i = 0; i < GRID; i++) {
            mean += texture(small, (vec2(i, j) + 0.5) / float(GRID)).xyz;
        }
    }
    mean /= float(GRID * GRID);
    float global = length(weighted(c - mean));
    float near = length(weighted(c - ring_mean(uv, 0.08, aspect)));
    float far = length(weighted(c - ring_mean(uv, 0.2, aspect)));
    vec2 d = (uv - 0.5) / aspect;  // in frame heights
    float prior = exp(-dot(d, d) / (2.0 * 0.3 * 0.3));
    // Skin: the core of skin tones (low chroma, mid to light tones) marks a face.
    float skin = skin_band(c, vec4(35.0, 45.0, 70.0, 78.0), vec4(11.0, 15.0, 24.0, 30.0),
                           vec4(40.0, 55.0, 88.0, 95.0));
    float contrast = 0.5 * global + near + far;
    frag = vec4(contrast * (0.35 + 0.65 * prior), prior, min(1.0, 1.5 * skin) * (0.6 + 0.4 * prior), 1.0);
}
