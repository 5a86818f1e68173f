#version 330 core
// Canny, step 2: non-maximum suppression and the double threshold, as cv2.Canny with
// L2gradient does it. The magnitude is dx^2 + dy^2 (whole numbers, exact in float), compared
// with floor(low^2) and floor(high^2). The gradient direction is quantized to 4 directions
// with OpenCV's fixed-point tangents (tan 22.5 and tan 67.5 degrees, 15 bits) and the pixel is
// kept only if its magnitude beats both neighbours across the edge (strictly on the one
// side, at least equal on the other, as OpenCV breaks ties). Outside the picture the
// magnitude is 0.
// tiles: reach 1
#include "filters/canny.glsl"
out vec4 frag;
uniform sampler2D gradient;  // .rg = Sobel dx, dy in grey levels (canny_gradient)
uniform float u_canny_low;   // thresholds on the gradient magnitude, grey levels
uniform float u_canny_high;

const int TG22 = 13573;  // round(tan(22.5 deg) * 2^15)

float mag(ivec2 q, ivec2 size) {
    if (any(lessThan(q, ivec2(0))) || any(greaterThanEqual(q, size))) return 0.0;
    vec2 g = texelFetch(gradient, q, 0).rg;
    return dot(g, g);
}

void main() {
    ivec2 p = ivec2(gl_FragCoord.xy);
    ivec2 size = textureSize(gradient, 0);
    vec2 g = texelFetch(gradient, p, 0).rg;
    float m = dot(g, g);
    float lo = min(u_canny_low, u_canny_high);
    float hi = max(u_canny_low, u_canny_high);
    float low = lo > 0.0 ? floor(lo * lo) : lo;
    float high = hi > 0.0 ? floor(hi * hi) : hi;
    float state = CANNY_NONE;
    if (m > low) {
        int xs = int(g.x), ys = int(g.y);
        int x = abs(xs);
        int y = abs(ys) << 15;
        int tg22x = x * TG22;
        bool peak;
        if (y < tg22x) {  // near horizontal gradient: compare left and right
            peak = m > mag(p + ivec2(-1, 0), size) && m >= mag(p + ivec2(1, 0), size);
        } else {
            int tg67x = tg22x + (x << 16);
            if (y > tg67x) {  // near vertical: compare the rows above and below
                peak = m > mag(p + ivec2(0, -1), size) && m >= mag(p + ivec2(0, 1), size);
            } else {  // diagonal: the neighbours along the gradient's diagonal
                int s = (xs < 0) != (ys < 0) ? -1 : 1;
                peak = m > mag(p + ivec2(-s, -1), size) && m > mag(p + ivec2(s, 1), size);
            }
        }
        if (peak) state = m > high ? CANNY_STRONG : CANNY_WEAK;
    }
    frag = vec4(state, 0.0, 0.0, 1.0);
}
