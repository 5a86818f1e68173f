#version 330 core
// The subject as a depth cue: a person stands in front of what is behind them, and a face's
// middle is nearer than its figure. The picture's cues alone put a portrait's face little
// nearer than the wall behind it (53 against 38 of 255; its outlines and the ground-plane
// ramp said more: trial X), so a 3D portrait's face sat in the wall.
in vec2 v_uv;
out vec4 frag;
uniform sampler2D src;      // nearness from the picture's cues (.r)
uniform sampler2D subject;  // .r the face, .b the figure (engine/subject_map.py)
uniform int u_subject;      // 1: the subject map holds a face or a person

const float FIGURE_NEAR = 0.72;  // the least nearness of a person
const float FACE_RELIEF = 0.2;   // how much nearer a face's middle is than its figure

void main() {
    float cue = texture(src, v_uv).r;
    vec4 m = u_subject != 0 ? texture(subject, v_uv) : vec4(0.0);
    float near = max(cue, FIGURE_NEAR) + FACE_RELIEF * m.r;
    frag = vec4(min(mix(cue, near, m.b), 1.0), 0.0, 0.0, 1.0);
}
