#version 330 core
// Wet edges from the wash field (MNPR): how far each colour is from its blurred
// neighbourhood. The difference peaks where one wash meets another and fades into each wash
// over the blur's width, so pigment pools along the inside of every wash's border, on both
// sides, and nowhere inside a flat wash.
out vec4 frag;
uniform sampler2D src;    // the washes, sRGB
uniform sampler2D blurred; // the same, Gaussian-blurred

void main() {
    ivec2 p = ivec2(gl_FragCoord.xy);
    vec3 d = texelFetch(src, p, 0).rgb - texelFetch(blurred, p, 0).rgb;
    frag = vec4(length(d), 0.0, 0.0, 1.0);
}
