#version 330 core
// Procedural paper height field in [0,1]: fine grain plus a few larger bumps, seeded.
// The sheet follows the global camera motion (u_canvas: pan, zoom, roll), as if the camera
// moved over it (Dynamic Canvas, Cunzi et al. 2003). Under zoom the grain must keep its size
// on screen, so the sheet is seen at two octaves, 2^m and 2^(m+1) times the canvas scale,
// cross-faded by the fractional zoom level (contrast renormalized): each layer moves
// exactly with the sheet, and together they keep the grain about u_paper_scale times
// paper_grain_px (paper_grain.glsl) pixels.
// tiles: reach 0
#include "common/noise.glsl"
#include "common/canvas.glsl"
#include "watercolor/paper_grain.glsl"
out vec4 frag;
uniform int u_seed;
uniform float u_paper_scale;
uniform vec4 u_canvas;
uniform vec2 u_origin;  // a tile's corner in the whole picture, source px (0 untiled)
uniform float u_px;     // work px per reference px
uniform float u_scale;  // work px per source px
uniform int u_paper_sheets;  // 2 while the zoom cross-fades two sheets (compiled in: a CPU
                             // renderer runs both sides of a branch; style_stage.py)

const float FINE = 0.4;  // of the height, on a big picture, in grain of the pixel's size

float sheet(vec2 q) {
    float grain = fbm(q / 3.5, 3, u_seed, 101);
    float bumps = fbm(q / 24.0, 3, u_seed, 131);
    return 0.7 * grain + 0.3 * bumps;
}

// The sheet at `q` (grain units): where the grain is drawn larger than the pixel's (`k`
// times), part of its height is a grain of the pixel's size on top, so its tooth is crisp at
// 100% (blind pairs: the larger grain alone reads as soft stucco) and shows when shrunk.
float sheet_at(vec2 q, float k) {
    float h = sheet(q);
    return k > 1.0 ? mix(h, fbm(q * k / 3.5, 2, u_seed, 151), FINE * (1.0 - 1.0 / (k * k))) : h;
}

void main() {
    float grain = paper_grain_px(u_px / u_scale);
    vec2 c = canvas_point(u_canvas, gl_FragCoord.xy + u_origin) / (u_paper_scale * grain);
    float level = -log2(max(length(u_canvas.xy), 1e-6));  // zoom level: 0 without zoom
    float m = floor(level);
    // The cross-fade spans the middle of each octave only: a video's canvas drifts by a few
    // thousandths of a level (the motion's zoom, accumulated), and a fade begun at once drew
    // both sheets on nearly every frame of a pan (the paper then took a quarter of an
    // H200's 1080p frame); within FADE_MARGIN of an octave the grain is 1.4% off its size.
    const float FADE_MARGIN = 0.02;
    float f = clamp((level - m - FADE_MARGIN) / (1.0 - 2.0 * FADE_MARGIN), 0.0, 1.0);
    float h = sheet_at(c * exp2(f >= 1.0 ? m + 1.0 : m), grain);
    if (u_paper_sheets > 1 && f > 0.0 && f < 1.0) {
        float h1 = sheet_at(c * exp2(m + 1.0), grain);
        float w0 = 1.0 - f, w1 = f;
        h = 0.5 + (w0 * (h - 0.5) + w1 * (h1 - 0.5)) / sqrt(w0 * w0 + w1 * w1);
    }
    frag = vec4(clamp(h, 0.0, 1.0), 0.0, 0.0, 1.0);
}
