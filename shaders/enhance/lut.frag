#version 330 core
// Per-tile lookup tables from luma histograms (one row per tile), as OpenCV computes them:
// global equalization (cv2.equalizeHist) or contrast-limited (CLAHE: the histogram clipped
// at the limit, the excess spread evenly, the remainder one count per bin from bin 0 at a
// fixed step). Output: 256 x tiles, the new luma 0..255 of each old one.
uniform sampler2D hist;
uniform sampler2D stats;      // per row: total, first occupied count, clipped, limit
uniform int u_equalize;       // 1 global, 2 clahe
uniform int u_tiles;
out vec4 frag;

void main() {
    int bin = int(gl_FragCoord.x);
    int row = int(gl_FragCoord.y);
    if (row >= (u_equalize == 2 ? u_tiles * u_tiles : 1)) {
        frag = vec4(0.0);
        return;
    }
    vec4 s = texelFetch(stats, ivec2(0, row), 0);
    float total = s.x;
    if (total <= 0.0) {
        frag = vec4(float(bin));
        return;
    }
    float lut;
    if (u_equalize == 1) {
        // equalizeHist: the first occupied bin maps to 0, the last to 255; a flat picture stays
        float below = 0.0;
        for (int j = 0; j <= bin; ++j)
            below += texelFetch(hist, ivec2(j, row), 0).r;
        float first = s.y;
        lut = total == first ? float(bin)
                             : max(below - first, 0.0) * (255.0 / (total - first));
    } else {
        float limit = s.w;
        float batch = floor(s.z / 256.0);
        float residual = s.z - batch * 256.0;
        int step = residual > 0.0 ? max(256 / int(residual), 1) : 256;
        float sum = 0.0;
        for (int j = 0; j <= bin; ++j) {
            float h = min(texelFetch(hist, ivec2(j, row), 0).r, limit) + batch;
            if (residual > 0.0 && j % step == 0 && float(j / step) < residual) h += 1.0;
            sum += h;
        }
        lut = sum * (255.0 / total);
    }
    frag = vec4(clamp(roundEven(lut), 0.0, 255.0));
}
