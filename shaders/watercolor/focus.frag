#version 330 core
// The focus map: where people look, which the washes' detail, border crispness and size
// follow. With a subject found (faces, the person: engine/subject_map.py) the head is 1, the
// figure nearly so, and the saliency of the rest counts for little (the background dissolves,
// more so for the "loose wash" background); without one, the saliency alone, as before.
// .x focus (the features 1, the face FACE, the figure FIGURE: the face's skin is laid
// smoother than its drawing), .y the features, .z the face, .w the figure.
// tiles: reach 0
out vec4 frag;
uniform sampler2D saliency;  // .x: colour contrast, centre, skin (0..1)
uniform sampler2D subject;   // .r face, .g features, .b figure (engine/subject_map.py)
uniform vec2 u_resolution;
uniform int u_subject;       // a subject was found in this frame (or is fading out)
uniform float u_subject_weight;  // 0..1: a face found or lost fades in or out
uniform int u_background;    // 0 painted, 1 loose wash, 2 bare paper

const float FACE = 0.85;   // the face's focus, under its features
const float FIGURE = 0.7;  // the body's and hair's, under the face's
const float REST[3] = float[3](0.45, 0.15, 0.3);  // the saliency's weight beyond the figure

void main() {
    vec2 uv = gl_FragCoord.xy / u_resolution;
    float sal = texture(saliency, uv).x;
    if (u_subject == 0) {
        frag = vec4(sal, 0.0, 0.0, 1.0);
        return;
    }
    vec4 m = texture(subject, uv);
    float focus = max(max(m.g, FACE * m.r),
                      max(FIGURE * m.b, REST[u_background] * sal * (1.0 - m.b)));
    float k = u_subject_weight;
    frag = vec4(mix(sal, focus, k), k * m.g, k * m.r, k * m.b);
}
