#version 330 core
// Monocular depth cues of one picture, as nearness 0 (far) .. 1 (near): lower in the frame
// is nearer (the ground plane), detailed and contrasty is nearer (haze and defocus soften
// what is far), saturated is nearer (aerial perspective greys and blues distant things).
#include "common/color.glsl"
in vec2 v_uv;
out vec4 frag;
uniform sampler2D src;      // the view (a smaller copy is fine: read by position)
uniform vec2 u_resolution;  // this pass's size

void main() {
    vec2 px = 1.0 / u_resolution;
    float sum = 0.0, sum2 = 0.0, grad = 0.0;
    for (int j = -2; j <= 2; ++j) {
        for (int i = -2; i <= 2; ++i) {
            float y = luma(texture(src, v_uv + vec2(i, j) * px).rgb);
            sum += y;
            sum2 += y * y;
        }
    }
    float mean = sum / 25.0;
    float contrast = sqrt(max(sum2 / 25.0 - mean * mean, 0.0));
    vec3 c = texture(src, v_uv).rgb;
    float gx = luma(texture(src, v_uv + vec2(px.x, 0.0)).rgb)
             - luma(texture(src, v_uv - vec2(px.x, 0.0)).rgb);
    float gy = luma(texture(src, v_uv + vec2(0.0, px.y)).rgb)
             - luma(texture(src, v_uv - vec2(0.0, px.y)).rgb);
    grad = length(vec2(gx, gy));
    float sat = max(c.r, max(c.g, c.b)) - min(c.r, min(c.g, c.b));
    float detail = clamp(4.0 * contrast + 2.0 * grad, 0.0, 1.0);
    float low = smoothstep(0.15, 1.0, v_uv.y);  // row 0 is the top of the picture
    float nearness = 0.55 * low + 0.3 * detail + 0.15 * sat;
    frag = vec4(nearness, 0.0, 0.0, 1.0);
}
