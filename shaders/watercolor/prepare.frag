#version 330 core
// Source frame -> work-resolution image (sRGB values in [0,1], float), keyed up where the
// frame is underexposed or a face lies in deep shade (the `exposed` flag runs this pass at
// the source's size too).
// tiles: reach 0
#include "common/color.glsl"
#include "watercolor/face_lift.glsl"
in vec2 v_uv;
out vec4 frag;
uniform sampler2D source;
uniform sampler2D subject;  // .r the face (engine/subject_map.py): where the shadow key lifts
// the exposure key (engine/exposure.py): a gain in linear light, as a camera's exposure,
// that brings an underexposed frame's lights to a normal level; 1 where it is exposed well
// or has no face (style_stage.py)
uniform float u_key_gain;
uniform float u_scale;          // work px per source px
uniform float u_target_scale;
uniform vec2 u_origin;  // a tile's corner in the whole picture, source px (0 untiled)

void main() {
    vec3 c = clamp(texture(source, v_uv).rgb, 0.0, 1.0);
    // and a face in deep shade keyed on its skin (face_lift.glsl)
    float gain = u_key_gain * face_lift(gl_FragCoord.xy / (u_scale * u_target_scale) + u_origin,
                                        texture(subject, v_uv).r);
    if (gain > 1.0) {
        // the lights it would push past white are brightened less, each pixel's colour kept
        // (its channels in proportion): a lit cheek or a window does not turn a flat hue
        vec3 lin = srgb_to_linear(c);
        float top = max(max(lin.r, lin.g), lin.b);
        c = linear_to_srgb(lin * min(gain, 1.0 / max(top, 1e-6)));
    }
    frag = vec4(c, 1.0);
}
