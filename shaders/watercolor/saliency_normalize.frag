#version 330 core
// Saliency, step 3: the contrast, lightly blurred, relative to the frame's mean and maximum
// (so the map spans 0..1 whatever the photo's overall contrast), mixed with the centre prior
// so that a flat frame still keeps its middle; skin tones (faces) are always the subject.
out vec4 frag;
uniform sampler2D raw;     // .x contrast, .y centre prior, .z skin
uniform vec2 u_resolution;

const int GRID = 8;

void main() {
    vec2 uv = gl_FragCoord.xy / u_resolution;
    vec2 t = 1.0 / u_resolution;
    float mean = 0.0;
    float top = 0.0;
    for (int j = 0; j < GRID; j++) {
        for (int i = 0; i < GRID; i++) {
            float v = texture(raw, (vec2(i, j) + 0.5) / float(GRID)).x;
            mean += v;
            top = max(top, v);
        }
    }
    mean /= float(GRID * GRID);
    float v = 0.0;
    float skin = 0.0;
    for (int j = -1; j <= 1; j++) {
        for (int i = -1; i <= 1; i++) {
            vec4 r = texture(raw, uv + 1.5 * vec2(i, j) * t);
            v += r.x;
            skin += r.z;
        }
    }
    v /= 9.0;
    skin /= 9.0;
    float s = smoothstep(0.6 * mean, max(0.8 * top, 0.6 * mean + 1.0), v);
    float prior = texture(raw, uv).y;
    frag = vec4(clamp(max(0.8 * s + 0.2 * prior, skin), 0.0, 1.0), 0.0, 0.0, 1.0);
}
