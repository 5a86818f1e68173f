#version 330 core
// Resample to this target's size with a Catmull-Rom bicubic (sharp, little ringing):
// the enlargement's last step to a factor that is not a power of two.
out vec4 frag;
uniform sampler2D src;
uniform vec2 u_resolution;

vec4 w4(float t) {
    float t2 = t * t, t3 = t2 * t;
    return vec4(-0.5 * t3 + t2 - 0.5 * t, 1.5 * t3 - 2.5 * t2 + 1.0,
                -1.5 * t3 + 2.0 * t2 + 0.5 * t, 0.5 * t3 - 0.5 * t2);
}

void main() {
    vec2 in_size = vec2(textureSize(src, 0));
    ivec2 lim = ivec2(in_size) - 1;
    vec2 pp = gl_FragCoord.xy * (in_size / u_resolution) - 0.5;
    vec2 fp = floor(pp);
    vec2 t = pp - fp;
    vec4 wx = w4(t.x), wy = w4(t.y);
    vec3 sum = vec3(0.0);
    for (int j = 0; j < 4; j++) {
        vec3 row = vec3(0.0);
        for (int i = 0; i < 4; i++) {
            ivec2 q = clamp(ivec2(fp) + ivec2(i - 1, j - 1), ivec2(0), lim);
            row += wx[i] * texelFetch(src, q, 0).rgb;
        }
        sum += wy[j] * row;
    }
    frag = vec4(clamp(sum, 0.0, 1.0), 1.0);
}
