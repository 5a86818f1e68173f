// What the passes do with the photo's defocus (defocus.frag): out of focus a painter lays
// soft, wet-in-wet washes, in focus as before. On a face nothing changes (its own soft
// treatment: a soft face's dried edges are its only drawing, hard_edges.glsl).
uniform float u_out_of_focus;  // 0..1: how much of this it does (0: in focus and out alike)

// How much of a texel is laid out of focus: the map's, but none on a face (`focus`: the focus
// map, .z the face; 0 without a subject).
float defocused(sampler2D defocus, vec2 uv, vec4 focus) {
    if (u_out_of_focus <= 0.0) {
        return 0.0;  // (the map is not drawn)
    }
    return u_out_of_focus * texture(defocus, uv).x * (1.0 - smoothstep(0.0, 0.5, focus.z));
}

// The tone slope (tone_slope's) out of focus: at most WET_SLOPE, the tones' steps graded
// there (washes merged wet in wet), not crisp bands with the photo's blurred shapes for
// borders. WET_SLOPE: at the default border sharpness each step's ramp spans its whole
// interval (tones.glsl's wash_tone_n: 4 x mix(0.04, 1, smoothstep(0.2, 1.5, slope)) = 0.25,
// where the ramps just meet, as a face's FACE_GRADE): still tones, not the photo's continuous
// shading; steeper (0.5 at 0.45), a blurred edge of strong contrast still dried into a step
// a pixel or two wide.
const float WET_SLOPE = 0.32;
float defocused_slope(float slope, float defocus) {
    return mix(slope, min(slope, WET_SLOPE), defocus);
}
