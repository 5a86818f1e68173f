#version 330 core
// Edges: the Sobel gradient magnitude of the luma (BT.601), scaled by `gain`, as white
// lines on black (or inverted: dark lines on white paper). Replicated borders.
// tiles: reach 1
out vec4 frag;
uniform sampler2D src;
uniform float u_gain;
uniform int u_invert;

float y(ivec2 p, ivec2 lim) {
    return dot(texelFetch(src, clamp(p, ivec2(0), lim), 0).rgb, vec3(0.299, 0.587, 0.114));
}

void main() {
    ivec2 p = ivec2(gl_FragCoord.xy);
    ivec2 lim = textureSize(src, 0) - 1;
    float a = y(p + ivec2(-1, -1), lim), b = y(p + ivec2(0, -1), lim), c = y(p + ivec2(1, -1), lim);
    float d = y(p + ivec2(-1, 0), lim), f = y(p + ivec2(1, 0), lim);
    float g = y(p + ivec2(-1, 1), lim), h = y(p + ivec2(0, 1), lim), i = y(p + ivec2(1, 1), lim);
    float gx = (c + 2.0 * f + i) - (a + 2.0 * d + g);
    float gy = (g + 2.0 * h + i) - (a + 2.0 * b + c);
    float m = clamp(u_gain * sqrt(gx * gx + gy * gy), 0.0, 1.0);
    frag = vec4(vec3(u_invert != 0 ? 1.0 - m : m), 1.0);
}
