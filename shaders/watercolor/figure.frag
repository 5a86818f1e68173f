#version 330 core
// The figure and its neighbourhood for the vignette, from the subject map (.x the figure:
// person or face, .y near it, .z the face); carried along the flow by temporal_blend, so the
// vignette does not jitter as the person mask is refreshed. Between two people near each
// other (the map's .a over 1: engine/subject_map.py _joined) the ground joining them is
// figure at JOINED, under the outline's ragged noise: one group with what it is doing.
// tiles: reach 0
out vec4 frag;
uniform sampler2D subject;  // .r face, .b figure, .a near it (engine/subject_map.py)
uniform vec2 u_resolution;
uniform int u_subject;
uniform int u_background;  // 0 painted, 1 loose wash, 2 bare paper (the figure alone)

const float JOINED = 0.75;  // the vignette keeps it (its threshold 0.32 at the default 0.6)
                            // with a ragged edge, and fades it at the frame's borders

void main() {
    vec4 m = texture(subject, gl_FragCoord.xy / u_resolution);
    float joined = u_background == 2 ? 0.0 : JOINED * clamp(m.a - 1.0, 0.0, 1.0);
    frag = u_subject != 0 ? vec4(max(m.b, joined), min(m.a, 1.0), m.r, 1.0)
                          : vec4(0.0, 0.0, 0.0, 1.0);
}
