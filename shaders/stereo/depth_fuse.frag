#version 330 core
// Nearness for this frame. Motion parallax is evidence that adds up over time: a running
// average of the parallax nearness weighted by its confidence, carried along the flow and
// slowly forgotten (depth memory); the picture cues fill in where motion has not spoken.
// Output: r the nearness, g the motion average, b the evidence (sum of decayed weights).
// No history (first frame, a cut, a still): the cues and this frame's motion alone.
in vec2 v_uv;
out vec4 frag;
uniform sampler2D cues;      // nearness from the picture (blurred)
uniform sampler2D parallax;  // nearness from motion, confidence in alpha
uniform sampler2D prev;      // last frame's result
uniform sampler2D flow;      // backward flow, UV units
uniform int u_history;
uniform float u_motion_weight;   // how far motion may override the cues
uniform float u_depth_memory;    // how much of the past is kept each frame (0..0.98)

void main() {
    float cue = texture(cues, v_uv).r;
    vec4 par = texture(parallax, v_uv);
    vec2 puv = v_uv + texture(flow, v_uv).xy;
    bool inside = all(greaterThanEqual(puv, vec2(0.0))) && all(lessThanEqual(puv, vec2(1.0)));
    vec4 past = (u_history != 0 && inside) ? texture(prev, puv) : vec4(cue, 0.0, 0.0, 1.0);
    // where this frame's motion clearly says otherwise (a surface just uncovered, whose
    // backward flow still points into the object that hid it), the past does not count
    float disagree = par.a * smoothstep(0.15, 0.4, abs(par.r - past.g)) * float(past.b > 0.0);
    float carried = past.b * u_depth_memory * (1.0 - disagree);
    float evidence = par.a + carried;
    float motion = evidence > 1e-4 ? (par.a * par.r + carried * past.g) / evidence : 0.0;
    float z = mix(cue, motion, u_motion_weight * clamp(evidence, 0.0, 1.0));
    // and the result itself eased, so what the cues add does not flicker
    z = mix(z, past.r, 0.5 * u_depth_memory * float(u_history != 0 && inside));
    frag = vec4(z, motion, min(evidence, 8.0), 1.0);
}
