#version 330 core
// Wet-edge mask: colour contrast of the abstracted image across a band of +-width pixels.
// Pigment collects where a wash meets another, so the composite darkens by this mask.
out vec4 frag;
uniform sampler2D src;   // abstracted sRGB
uniform float u_edge_width;

void main() {
    vec2 size = vec2(textureSize(src, 0));
    vec2 p = gl_FragCoord.xy;
    float w = max(u_edge_width, 0.5);
    vec3 dx = texture(src, (p + vec2(w, 0.0)) / size).rgb - texture(src, (p - vec2(w, 0.0)) / size).rgb;
    vec3 dy = texture(src, (p + vec2(0.0, w)) / size).rgb - texture(src, (p - vec2(0.0, w)) / size).rgb;
    frag = vec4(sqrt(dot(dx, dx) + dot(dy, dy)), 0.0, 0.0, 1.0);
}
