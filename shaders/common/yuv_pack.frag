#version 330 core
// Packs a picture (sRGB values: the encoder's R'G'B') into 8-bit 4:2:0 YUV bytes, laid out
// as the encoder or virtual camera takes them, in one R8 target of (W, H * 3 / 2) texels:
// read back row by row, its bytes are the frame. I420: the Y plane, then U, then V (each
// W/2 x H/2); NV12: Y, then U and V interleaved. Limited range (Y 16-235, C 16-240), or full
// (0-255, C centred on 128: FFmpeg's JPEG range). Chroma is the mean of its 2x2 pixels
// (centre-sited). (W, H) is the coded size, even; pixels past the picture repeat its last
// column and row.
out float frag;
uniform sampler2D src;   // bilinear: a 2x2 block's mean in one fetch
uniform ivec2 u_coded;   // (W, H)
uniform int u_plane;     // 0: the Y plane (drawn over rows 0..H-1), 1: the chroma after it
uniform int u_nv12;      // 0: I420, 1: NV12
uniform vec2 u_kr_kb;    // the matrix's luma weights of red and blue (BT.709, BT.601, ...)
uniform int u_full;      // 0: limited range, 1: full range

float luma(vec3 c) {
    float kr = u_kr_kb.x, kb = u_kr_kb.y;
    return kr * c.r + (1.0 - kr - kb) * c.g + kb * c.b;
}

// Cb (v = 0) or Cr (v = 1) of chroma sample q, as a byte value / 255
float chroma(ivec2 q, int v) {
    // the middle of its 2x2 pixels (clamped at the edge: the last column and row repeat)
    vec3 c = texture(src, vec2(q * 2 + 1) / vec2(textureSize(src, 0))).rgb;
    float y = luma(c);
    float d = v == 0 ? (c.b - y) / (2.0 * (1.0 - u_kr_kb.y))
                     : (c.r - y) / (2.0 * (1.0 - u_kr_kb.x));
    return (128.0 + (u_full != 0 ? 255.0 : 224.0) * d) / 255.0;
}

void main() {
    int w = u_coded.x, h = u_coded.y;
    ivec2 t = ivec2(gl_FragCoord.xy);
    if (u_plane == 0) {
        ivec2 last = textureSize(src, 0) - 1;
        float y = luma(texelFetch(src, min(t, last), 0).rgb);
        frag = u_full != 0 ? y : (16.0 + 219.0 * y) / 255.0;
        return;
    }
    int cw = w / 2;
    if (u_nv12 != 0) {  // U V U V ... one chroma row per texel row
        frag = chroma(ivec2(t.x / 2, t.y - h), t.x % 2);
        return;
    }
    // I420: the bytes after the Y plane, counted across rows of W
    int i = (t.y - h) * w + t.x;
    int plane = cw * (h / 2);
    int v = i < plane ? 0 : 1;
    int j = i - v * plane;
    frag = chroma(ivec2(j % cw, j / cw), v);
}
