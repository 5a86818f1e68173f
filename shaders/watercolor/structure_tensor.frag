#version 330 core
// Structure tensor (E, F, G) = sum over RGB of (gx*gx, gx*gy, gy*gy), Sobel/4 gradients with
// replicated borders. Flat pixels (|g|^2 < tau^2) carry no direction: tensor 0, weight .w 0,
// filled in later by pull-push.
out vec4 frag;
uniform sampler2D src;
uniform float u_flat_threshold;

vec3 px(ivec2 p) {
    return texelFetch(src, clamp(p, ivec2(0), textureSize(src, 0) - 1), 0).rgb;
}

void main() {
    ivec2 p = ivec2(gl_FragCoord.xy);
    vec3 a = px(p + ivec2(-1, -1)), b = px(p + ivec2(0, -1)), c = px(p + ivec2(1, -1));
    vec3 d = px(p + ivec2(-1, 0)),                            f = px(p + ivec2(1, 0));
    vec3 g = px(p + ivec2(-1, 1)),  h = px(p + ivec2(0, 1)),  i = px(p + ivec2(1, 1));
    vec3 gx = (c + 2.0 * f + i - a - 2.0 * d - g) / 4.0;
    vec3 gy = (g + 2.0 * h + i - a - 2.0 * b - c) / 4.0;
    vec3 t = vec3(dot(gx, gx), dot(gx, gy), dot(gy, gy));
    float valid = (t.x + t.z) >= u_flat_threshold * u_flat_threshold ? 1.0 : 0.0;
    frag = vec4(t * valid, valid);
}
