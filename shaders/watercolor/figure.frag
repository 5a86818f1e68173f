#version 330 core
// The figure and its neighbourhood for the vignette, from the subject map (.x the figure:
// person or face, .y near it, .z the face); carried along the flow by temporal_blend, so the
// vignette does not jitter as the person mask is refreshed.
// tiles: reach 0
out vec4 frag;
uniform sampler2D subject;  // .r face, .b figure, .a near it (engine/subject_map.py)
uniform vec2 u_resolution;
uniform int u_subject;

void main() {
    vec4 m = texture(subject, gl_FragCoord.xy / u_resolution);
    frag = u_subject != 0 ? vec4(m.b, m.a, m.r, 1.0) : vec4(0.0, 0.0, 0.0, 1.0);
}
