#version 330 core
// Wet edges from the wash field (MNPR): how far each colour is from its blurred
// neighbourhood. The difference peaks where one wash meets another and fades into each wash
// over the blur's width, so pigment pools along the inside of every wash's border, on both
// sides, and nowhere inside a flat wash.
// tiles: reach 0
out vec4 frag;
uniform sampler2D src;    // the washes, sRGB
uniform sampler2D blurred; // the same, Gaussian-blurred

uniform vec2 u_resolution;

void main() {
    // the blur may be smaller (a draft's): a linear lookup, exact at equal sizes
    vec3 d = texelFetch(src, ivec2(gl_FragCoord.xy), 0).rgb
           - texture(blurred, gl_FragCoord.xy / u_resolution).rgb;
    frag = vec4(length(d), 0.0, 0.0, 1.0);
}
