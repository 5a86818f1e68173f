#version 330 core
// The subject as a depth cue: a person stands in front of what is behind them, and a face is
// rounded, its middle nearest. The picture's cues alone put a portrait's face little nearer
// than the wall behind it (53 against 38 of 255; its outlines and the ground-plane ramp said
// more: trial X), so a 3D portrait's face sat in the wall; a face laid as one flat step
// read as a cardboard cut-out (its blind judge), so its relief is a dome: the share of the
// face found round each point, out to half a face.
in vec2 v_uv;
out vec4 frag;
uniform sampler2D src;      // nearness from the picture's cues (.r), this pass's size
uniform sampler2D subject;  // .r the face, .b the figure (engine/subject_map.py)
uniform int u_subject;      // 1: the subject map holds a face or a person
uniform float u_face_size;  // the faces' median size, source px (0: none)
uniform vec2 u_full_size;   // the source's size, px

const float FIGURE_NEAR = 0.72;  // the least nearness of a person
const float FACE_RELIEF = 0.26;  // a face's middle this much nearer than its figure (~0.2)
const float DOME_REACH = 0.5;    // of the face's size: how far round a point the face is taken
const int DOME_RINGS = 2;
const int DOME_TAPS = 8;

// The face round `uv`: 1 in a face's middle, falling towards its edges and past them.
float dome(vec2 uv, float here) {
    vec2 reach = DOME_REACH * u_face_size / max(u_full_size, vec2(1.0));
    float sum = here, n = 1.0;
    for (int r = 1; r <= DOME_RINGS; ++r) {
        for (int i = 0; i < DOME_TAPS; ++i) {
            float a = 6.2831853 * (float(i) + 0.5 * float(r)) / float(DOME_TAPS);
            vec2 at = uv + reach * float(r) / float(DOME_RINGS) * vec2(cos(a), sin(a));
            sum += texture(subject, at).r;
            n += 1.0;
        }
    }
    return sum / n;
}

void main() {
    float cue = texelFetch(src, ivec2(gl_FragCoord.xy), 0).r;  // (its own size: exact)
    vec4 m = u_subject != 0 ? texture(subject, v_uv) : vec4(0.0);
    float face = m.r > 0.0 ? min(m.r, dome(v_uv, m.r)) : 0.0;
    float near = max(cue, FIGURE_NEAR) + FACE_RELIEF * face;
    frag = vec4(min(mix(cue, near, m.b), 1.0), 0.0, 0.0, 1.0);
}
