#version 330 core
// Depth-image-based rendering: a new view of `image` from its disparity, by a backward warp
// with a disparity search along the row (occlusion-correct, no smears across depth edges).
//
// A source pixel at x lands at L(x) = x - u_shift * d(x) in the new view. For output pixel j
// the pass scans the source pixels within u_max_shift (+1) of j on the same row and keeps:
// - crossings: consecutive source pixels (x, x+1) of one continuous surface
//   (|u_shift * (d(x+1) - d(x))| < DIBR_EDGE, so L(x) < L(x+1) < L(x) + 2: no stretching)
//   whose landings enclose j; the colour is interpolated at the crossing (sub-pixel);
// - footprints: a source pixel covers [L(x) - 0.5, L(x) + 0.5) by itself, so a surface's last
//   pixel covers its whole width and a pixel between two depth edges that is nearer than
//   both neighbours (a thin wire) still shows (one cut off on both sides and not nearer is
//   left out: a mixed edge value);
// - the nearest landings left and right of j, for holes.
// Among crossings the nearest surface (largest interpolated d) wins; a footprint wins only
// when it is clearly nearer (occlusion). Where nothing covers j (a disocclusion, or the
// border the view moved in from) the hole is filled from the farther of the two surfaces
// bounding it (smaller d): mirrored back into that surface from its edge while the mirrored
// pixel belongs to it (|d - d_edge| <= DIBR_FILL_TOL), else that edge pixel's colour. Never a
// blend of both sides, never the nearer surface.
//
// Interface: `image` (sRGB values), `disparity` (r32f, picture pixels of the source view,
// larger = nearer, same size or smaller: read at normalized coordinates), u_shift, u_max_shift
// (the largest |u_shift * d| to search, in pixels; up to DIBR_MAX_RADIUS). Colours are
// interpolated in sRGB values, like a linear texture sampler. Mesa's compiler has miscompiled
// `continue` in loops: fixed bounds with `if` / `break` only.
out vec4 frag;
uniform sampler2D image;
uniform sampler2D disparity;
uniform float u_shift;
uniform float u_max_shift;
// Or the reach as a share of the width: the largest disparity in % of the width (the stereo
// style's depth strength), of which this view takes |u_shift|.
uniform float u_max_shift_percent;

#include "stereo/dibr_disparity.glsl"

const int DIBR_MAX_RADIUS = 1024;  // search radius cap in pixels (u_max_shift above: clipped)
const float DIBR_EDGE = 1.0;       // |u_shift * disparity step| from which neighbours part
const float DIBR_FILL_TOL = 2.0;   // disparity difference of a mirrored hole-fill pixel
const float FAR = 1.0e30;

vec4 pixel(int x, int row) {
    return texelFetch(image, ivec2(x, row), 0);
}

void main() {
    ivec2 isize = textureSize(image, 0);
    vec2 size = vec2(isize);
    int w = isize.x;
    int row = int(gl_FragCoord.y);
    int jx = int(gl_FragCoord.x);
    float j = float(jx);
    float s = u_shift;
    float reach = max(abs(u_max_shift), abs(u_shift) * 0.01 * u_max_shift_percent
                                        * float(textureSize(image, 0).x));
    int radius = int(ceil(clamp(reach, 0.0, float(DIBR_MAX_RADIUS)))) + 1;
    int x0 = max(jx - radius, 0);
    int x1 = min(jx + radius, w - 1);
    // Depths (d) closer than this count as one surface when a crossing meets a footprint.
    float tol = DIBR_EDGE / max(abs(s), 1.0e-3);

    float crossD = -FAR;   // the nearest crossing: its disparity and colour
    vec4 crossC = vec4(0.0);
    float footD = -FAR;    // the nearest footprint: its disparity and pixel
    int footX = -1;
    float leftL = -FAR;    // the nearest landing at or left of j: position, pixel, disparity
    int leftX = -1;
    float leftD = 0.0;
    float rightL = FAR;    // the nearest landing right of j
    int rightX = -1;
    float rightD = 0.0;

    // A rolling window of three disparities: d(x - 1), d(x), d(x + 1).
    float dPrev = dibr_disparity_at(disparity, max(x0 - 1, 0), row, size);
    float dCur = dibr_disparity_at(disparity, x0, row, size);
    float lPrev = 0.0;
    for (int k = 0; k <= 2 * DIBR_MAX_RADIUS + 2; ++k) {
        int x = x0 + k;
        if (x > x1) {
            break;
        }
        float dNext = x < w - 1 ? dibr_disparity_at(disparity, x + 1, row, size) : dCur;
        float d = dCur;
        float l = float(x) - s * d;
        bool joinsLeft = x > 0 && abs(s * (d - dPrev)) < DIBR_EDGE;
        bool joinsRight = x < w - 1 && abs(s * (dNext - d)) < DIBR_EDGE;
        // A pixel cut off on both sides covers its footprint only when it is nearer than both
        // neighbours (a thin wire, a spoke): one between a near and a far side (a mixed edge
        // disparity or colour) would speckle the hole it lands in. It still bounds holes.
        if ((joinsLeft || joinsRight || d >= max(dPrev, dNext))
                && j >= l - 0.5 && j < l + 0.5 && d > footD) {
            footD = d;
            footX = x;
        }
        if (l <= j && l > leftL) {
            leftL = l;
            leftX = x;
            leftD = d;
        }
        if (l > j && l < rightL) {
            rightL = l;
            rightX = x;
            rightD = d;
        }
        if (k > 0 && joinsLeft && lPrev <= j && j <= l && lPrev < l) {
            float t = (j - lPrev) / (l - lPrev);
            float dc = mix(dPrev, d, t);
            if (dc > crossD) {
                crossD = dc;
                crossC = mix(pixel(x - 1, row), pixel(x, row), t);
            }
        }
        dPrev = d;
        dCur = dNext;
        lPrev = l;
    }

    if (crossD > -FAR && crossD >= footD - tol) {
        frag = crossC;
    } else if (footX >= 0) {
        frag = pixel(footX, row);
    } else {
        // A hole: fill from the farther bounding surface, mirrored into it from its edge.
        bool fromLeft = leftX >= 0 && (rightX < 0 || leftD <= rightD);
        if (fromLeft || rightX >= 0) {
            int edge = fromLeft ? leftX : rightX;
            float edgeD = fromLeft ? leftD : rightD;
            float reach = fromLeft ? j - leftL : rightL - j;
            int m = int(floor(float(edge) + (fromLeft ? -reach : reach) + 0.5));
            m = clamp(m, 0, w - 1);
            float dm = dibr_disparity_at(disparity, m, row, size);
            frag = pixel(abs(dm - edgeD) <= DIBR_FILL_TOL ? m : edge, row);
        } else {
            frag = pixel(jx, row);  // nothing within reach (u_max_shift too small)
        }
    }
}
