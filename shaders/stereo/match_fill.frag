#version 330 core
// Stereo matching, step 8: every invalid pixel (-1 after the left-right check: mostly
// occlusions, which belong to the background) takes the smaller (farther) of the nearest
// valid disparities to its left and right on the row; one side if only one has any, 0 on a
// row without any.
out vec4 frag;
uniform sampler2D raw;

const int MAX_WIDTH = 8192;

void main() {
    ivec2 p = ivec2(gl_FragCoord.xy);
    float d = texelFetch(raw, p, 0).r;
    if (d >= 0.0) {
        frag = vec4(d, 0.0, 0.0, 1.0);
        return;
    }
    int w = textureSize(raw, 0).x;
    float left = -1.0;
    for (int i = 1; i < MAX_WIDTH; i++) {
        if (p.x - i < 0) break;
        left = texelFetch(raw, ivec2(p.x - i, p.y), 0).r;
        if (left >= 0.0) break;
    }
    float right = -1.0;
    for (int i = 1; i < MAX_WIDTH; i++) {
        if (p.x + i >= w) break;
        right = texelFetch(raw, ivec2(p.x + i, p.y), 0).r;
        if (right >= 0.0) break;
    }
    float fill = left >= 0.0 && right >= 0.0 ? min(left, right) : max(max(left, right), 0.0);
    frag = vec4(fill, 0.0, 0.0, 1.0);
}
