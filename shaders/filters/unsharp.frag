#version 330 core
// Unsharp mask: the picture plus `amount` times its difference from a Gaussian blur of it,
// only where that difference exceeds `threshold` (8-bit units), so flat noise stays calm.
// tiles: reach 0
out vec4 frag;
uniform sampler2D src;
uniform sampler2D blurred;
uniform float u_amount;
uniform float u_threshold;

void main() {
    ivec2 p = ivec2(gl_FragCoord.xy);
    vec3 c = texelFetch(src, p, 0).rgb;
    vec3 d = c - texelFetch(blurred, p, 0).rgb;
    vec3 mask = step(vec3(u_threshold / 255.0), abs(d));
    frag = vec4(clamp(c + u_amount * d * mask, 0.0, 1.0), 1.0);
}
