#version 330 core
// How far out of focus the photo is round here (a quarter of the work size), 0 in focus ..
// 1 blurred: a crowd behind a portrait, bokeh, a soft background, which a painter lays in
// soft wet-in-wet washes, keeping the hard edges for the subject in focus (trial F6: the
// product did the reverse, a blurred crowd dried into hard-edged camouflage patches).
// In a window WINDOW px either side, how many texels hold a sharp edge
// (defocus_detail.frag): one whose steepest gradient crosses the contrast round it within
// WIDTH px (a sharp step rises within a pixel or two, a defocused one over many),
// a contrast over GRAIN (not the photo's grain). A few such texels (an edge's line through
// the window, a texture; not a JPEG block's step) and it is in focus; none, out of focus.
// Only where the window has contrast enough to tell: a plain area, a smooth sky or wall (no
// edge) is 0, painted as before. (Smooth shading with no sharp detail near reads as blurred:
// its tones are graded anyway.) Read through watercolor/defocus.glsl.
// tiles: reach min(12, ceil(16.0 * max(1.0, u_px) * u_target_scale)) + 1
out vec4 frag;
uniform sampler2D detail;  // .x the steepest gradient, .y the range round it; .zw own px's
uniform float u_px;        // work px per reference px
uniform float u_target_scale;  // of the work size
uniform vec2 u_resolution;

const float WINDOW = 16.0;  // work px either side, as WIDTH (at most 12 texels)
// work px (as many reference px on a picture over 720 lines: a pixel is the limit of a small
// picture's sharpness, a large one's lens the limit): an edge this wide is sharp .. soft
const vec2 WIDTH = vec2(2.5, 4.0);
const vec2 GRAIN = vec2(5.0, 10.0);      // lightness: a texel's contrast, grain .. an edge
const vec2 SHARP = vec2(2.0, 6.0);       // texels with a sharp edge: out of focus .. in
const vec2 CONTRAST = vec2(5.0, 12.0);   // lightness range over the window: no edge .. one

void main() {
    ivec2 c = ivec2(gl_FragCoord.xy);
    ivec2 hi = ivec2(u_resolution) - 1;
    int r = min(12, int(ceil(WINDOW * max(1.0, u_px) * u_target_scale)));
    float lo = 1e9, top = -1e9, sharp = 0.0;
    for (int j = -r; j <= r; ++j) {
        for (int i = -r; i <= r; ++i) {
            vec4 d = texelFetch(detail, clamp(c + ivec2(i, j), ivec2(0), hi), 0);
            lo = min(lo, d.z);  // (the window's own px: an edge beyond it is not here)
            top = max(top, d.w);
            float span = d.y;
            float width = span / max(d.x, 1e-3) / max(1.0, u_px);
            sharp += (1.0 - smoothstep(WIDTH.x, WIDTH.y, width))
                     * smoothstep(GRAIN.x, GRAIN.y, span);
        }
    }
    float f = (1.0 - smoothstep(SHARP.x, SHARP.y, sharp))
              * smoothstep(CONTRAST.x, CONTRAST.y, top - lo);
    frag = vec4(f, 0.0, 0.0, 1.0);
}
