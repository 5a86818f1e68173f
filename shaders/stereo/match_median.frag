#version 330 core
// Stereo matching, step 9 (repeated, ping-pong on one target): the 3 x 3 median of the
// disparity (replicated borders): removes isolated wrong matches and the fill's one-pixel
// streaks, keeps steps between surfaces.
out vec4 frag;
uniform sampler2D state;

void main() {
    ivec2 p = ivec2(gl_FragCoord.xy);
    ivec2 lim = textureSize(state, 0) - 1;
    float v[9];
    for (int j = 0; j < 3; j++)
        for (int i = 0; i < 3; i++)
            v[3 * j + i] = texelFetch(state, clamp(p + ivec2(i - 1, j - 1), ivec2(0), lim), 0).r;
    // the median is the value with at most 4 values below it and at most 4 above it
    float median = v[4];
    for (int i = 0; i < 9; i++) {
        int below = 0, above = 0;
        for (int k = 0; k < 9; k++) {
            below += v[k] < v[i] ? 1 : 0;
            above += v[k] > v[i] ? 1 : 0;
        }
        if (below <= 4 && above <= 4) {
            median = v[i];
            break;
        }
    }
    frag = vec4(median, 0.0, 0.0, 1.0);
}
