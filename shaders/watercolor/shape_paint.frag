#version 330 core
// The shapes' washes at the washes' size (watercolor/shape_wash.glsl), which the tones
// follow away from the subject.
// tiles: reach 0
#include "watercolor/shape_wash.glsl"
out vec4 frag;
uniform sampler2D lab;     // Lab, abstracted (the washes' size)
uniform float u_scale;     // work px per source px
uniform float u_target_scale;
uniform vec2 u_origin;     // a tile's corner in the whole picture, source px (0 untiled)
uniform vec2 u_picture;    // the whole picture's source size

void main() {
    vec2 at = (gl_FragCoord.xy / (u_scale * u_target_scale) + u_origin) / u_picture;
    frag = vec4(shape_wash(texelFetch(lab, ivec2(gl_FragCoord.xy), 0).xyz, at), 1.0);
}
