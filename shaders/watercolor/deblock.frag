#version 330 core
// A compressed frame's block grid smoothed out (engine/blocks.py finds it), one axis of two,
// at the source's size before anything reads the picture: a painter paints the face the
// blocks imply, not the blocks. A box of exactly the grid's period has a zero at the grid's
// frequency and at all its harmonics: each flat block's step becomes a ramp into the next,
// whatever the grid's phase; luma in a box of its grid's period, chroma in one of twice its
// own (engine/blocks.py: a low bitrate's chroma comes in wide flat patches). Only where the
// picture is smooth but for steps a block's size: each tap's offset from the line the
// picture follows through this pixel at the boxes' scale (its slope: the mean of a box's
// width after the pixel less the one before) counts fully within STEP, not at all from twice
// that, in luma and in chroma each (a colour's blocks are smoothed beside a steep shading):
// a shaded cheek's slope is followed, its blocks' steps (a few levels) smoothed, and an
// edge (an eye, a strand, the lips: tens of levels) neither crossed nor sharpened. A
// picture without a grid never runs it (the `blocky` flag).
// tiles: reach along(u_dir, ceil(u_block_reach))
// (a still painted in tiles is not deblocked, style_stage.prepare_still: the tiles are
// planned without the `blocky` flag, and at such a size a block is a reference px or less)
out vec4 frag;
uniform sampler2D src;      // sRGB values, this target's size
uniform vec2 u_dir;         // (1,0) or (0,1)
uniform vec4 u_blocks;      // the boxes (px): luma's along x, y; chroma's along x, y
uniform float u_block_strength;  // 0 .. 1: how strongly the grid is smoothed
uniform float u_block_reach;     // the widest box (px): the slope's span

// sRGB levels (of 255, in Y'CbCr) of a tap's offset from the pixel's line within which it
// counts fully: a quality 20-30 JPEG's steps on smooth skin are 1-6 levels (a tap sees
// 0.5-0.8 of a step: the line passes between the blocks), a degraded webcam-like photo's
// chroma tiles 5-9 (trial F8's f09); a feature's edge 15-80. A weaker grid's less. (At 6
// f09's forehead kept some of its tiles' corners; at 9 an eye's white was a little duller.)
const float STEP = 8.0 / 255.0;
const int MAX_SPAN = 128;  // px: the widest box (blocks.MAX_PERIOD's chroma)
const int SLOPE_TAPS = 16;

const mat3 TO_YCC = mat3(0.299, -0.168736, 0.5,
                         0.587, -0.331264, -0.418688,
                         0.114, 0.5, -0.081312);
const mat3 TO_RGB = mat3(1.0, 1.0, 1.0,
                         0.0, -0.344136, 1.772,
                         1.402, -0.714136, 0.0);

vec3 ycc_at(ivec2 p, ivec2 hi) {
    return TO_YCC * texelFetch(src, clamp(p, ivec2(0), hi), 0).rgb;
}

// a box of `period` px (its two end taps partly in) at offset k
float box(float period, int k) {
    return clamp(0.5 * period + 0.5 - abs(float(k)), 0.0, 1.0);
}

void main() {
    ivec2 p = ivec2(gl_FragCoord.xy);
    ivec2 hi = textureSize(src, 0) - 1;
    ivec2 d = ivec2(u_dir);
    bool along_x = u_dir.x > 0.5;
    float luma = along_x ? u_blocks.x : u_blocks.y;
    float chroma = along_x ? u_blocks.z : u_blocks.w;
    vec3 c = ycc_at(p, hi);
    float step = STEP * u_block_strength;
    float span = max(luma, chroma);
    if (step <= 0.0 || span < 2.0) {
        frag = vec4(clamp(TO_RGB * c, 0.0, 1.0), 1.0);
        return;
    }
    // the line through this pixel: the mean of a span after it less the one before (every
    // `stride`-th px: SLOPE_TAPS a side take a span's mean as well, its blocks in every phase)
    int n = min(MAX_SPAN, int(ceil(span)));
    int stride = max(1, n / SLOPE_TAPS);
    vec3 after = vec3(0.0), before = vec3(0.0);
    int m = 0;
    for (int k = 1; k <= MAX_SPAN; k++) {
        int at = k * stride;
        if (at > n) break;
        after += ycc_at(p + at * d, hi);
        before += ycc_at(p - at * d, hi);
        m++;
    }
    // (the taps' mean offset a side is stride (m + 1) / 2)
    vec3 slope = (after - before) / (float(m) * float(stride) * float(m + 1));
    // each tap's offset from the line, counted as it lies (an outlying tap as on the line):
    // the pixel moves by the box's mean offset. Near an edge the far side's taps count as on
    // the line, so a soft edge stays as soft (a tap left out of the mean would sharpen it)
    int r = int(ceil(0.5 * span));
    vec3 moved = vec3(0.0);
    vec2 norm = vec2(1.0);  // the luma's box, the chroma's
    for (int i = 0; i <= MAX_SPAN; i++) {
        int k = i - r;
        if (k > r) break;
        if (k == 0) continue;
        vec3 off = ycc_at(p + k * d, hi) - (c + slope * float(k));
        vec2 w = clamp(2.0 - vec2(abs(off.x), length(off.yz)) / step, 0.0, 1.0);
        w *= w;
        vec2 b = vec2(box(luma, k), box(chroma, k));
        moved += vec3(w.x * b.x * off.x, w.y * b.y * off.yz);
        norm += b;
    }
    vec3 ycc = c + moved / vec3(norm.x, norm.y, norm.y);
    frag = vec4(clamp(TO_RGB * ycc, 0.0, 1.0), 1.0);
}
