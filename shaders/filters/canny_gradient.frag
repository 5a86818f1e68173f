#version 330 core
// Canny, step 1: the grey of the 8-bit picture as OpenCV's COLOR_RGB2GRAY computes it
// (BT.601 weights in 15-bit fixed point, rounded) and its 3x3 Sobel derivatives, with
// replicated borders: .r = d/dx, .g = d/dy in grey levels (whole numbers within +-1020, so
// exact in an rg16f target). Thresholds downstream are therefore in cv2.Canny's units.
// tiles: reach 1
out vec4 frag;
uniform sampler2D src;

int grey(ivec2 p, ivec2 lim) {
    ivec3 c = ivec3(round(clamp(texelFetch(src, clamp(p, ivec2(0), lim), 0).rgb, 0.0, 1.0)
                          * 255.0));
    return (c.r * 9798 + c.g * 19235 + c.b * 3735 + 16384) >> 15;
}

void main() {
    ivec2 p = ivec2(gl_FragCoord.xy);
    ivec2 lim = textureSize(src, 0) - 1;
    int a = grey(p + ivec2(-1, -1), lim), b = grey(p + ivec2(0, -1), lim);
    int c = grey(p + ivec2(1, -1), lim), d = grey(p + ivec2(-1, 0), lim);
    int f = grey(p + ivec2(1, 0), lim), g = grey(p + ivec2(-1, 1), lim);
    int h = grey(p + ivec2(0, 1), lim), i = grey(p + ivec2(1, 1), lim);
    int gx = (c + 2 * f + i) - (a + 2 * d + g);
    int gy = (g + 2 * h + i) - (a + 2 * b + c);
    frag = vec4(float(gx), float(gy), 0.0, 1.0);
}
