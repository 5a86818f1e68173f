#version 330 core
// The photo's hair texture round each texel (a quarter of the work size), for the beard map
// (beard.frag): (.x) how much finer its lightness varies than one edge explains, and (.y) how
// much its colour is a hair's. Stubble and a beard are many fine darks and lights a few px
// wide: the lightness less its 3x3 mean, at half the work size (2x2 px each, bilinear at a
// pixel corner), varies fast (`fine`: its RMS over the 4x4 half px round the texel's own 2x2).
// One edge (a jaw on a collar, a lip) varies so too, but along a slope: the plane fitted to
// the 6x6 half px round it rises per half px by 0.26 of a sharp step's contrast (`fine`:
// 0.24), where hairs' ups and downs cancel in it. `fine` less EDGE times the slope: the
// texture no edge explains (L*: a smooth cheek's up to 0.3, stubble's 1-3).
// Lightness: the photo's sRGB-encoded luma (within a few units of L*, 0..100).
// Its target is whole (beard.frag reads a face's grain and jaw anywhere): a big still's tiles
// each draw the texels in their core, reading the tile through `u_window`.
// tiles: reach ceil(6.0 * u_target_scale) + 1
#include "common/color.glsl"
out vec4 frag;
uniform sampler2D photo;  // the picture (work size, sRGB values)
uniform vec4 u_window;  // whole-picture uv -> a tile's (engine/tiles.py); identity untiled
uniform float u_target_scale;

const float EDGE = 0.7;  // of the slope: at 1 a soft beard over the jaw's shading read as edges

// A hair's colour: a grey, or a warm hue (blond, red, brown, black) no more vivid than a red
// beard; a blue shirt, a green coat, an orange jacket are no hair.
const vec2 HAIR_GREY = vec2(12.0, 18.0);     // chroma: grey .. coloured
const vec4 HAIR_HUE = vec4(5.0, 20.0, 95.0, 115.0);  // degrees: rise .. fall
const vec2 HAIR_VIVID = vec2(40.0, 50.0);    // chroma: a hair's .. a dye's

float hair_colour(vec3 lab) {
    float c = length(lab.yz);
    float h = degrees(atan(lab.z, lab.y));
    float warm = smoothstep(HAIR_HUE.x, HAIR_HUE.y, h)
                 * (1.0 - smoothstep(HAIR_HUE.z, HAIR_HUE.w, h))
                 * (1.0 - smoothstep(HAIR_VIVID.x, HAIR_VIVID.y, c));
    return max(1.0 - smoothstep(HAIR_GREY.x, HAIR_GREY.y, c), warm);
}

void main() {
    vec2 whole = vec2(textureSize(photo, 0)) * u_window.xy;  // the whole picture's work px
    // the texel's work px (a whole number of them: 4) as 2x2 half px, and two rings round them
    float k = floor(1.0 / u_target_scale + 0.5);
    vec2 base = floor(gl_FragCoord.xy) * k;  // its first work px's corner
    float v[36];
    vec3 colour = vec3(0.0);
    for (int j = 0; j < 6; ++j) {
        for (int i = 0; i < 6; ++i) {
            // half px (i - 2, j - 2) from the texel's first: 2x2 work px, their shared corner
            vec2 at = base + 2.0 * vec2(float(i), float(j)) - 3.0;
            vec3 c = texture(photo, at / whole * u_window.xy + u_window.zw).rgb;
            v[j * 6 + i] = 100.0 * luma(c);
            if (i >= 1 && i <= 4 && j >= 1 && j <= 4) {
                colour += c;
            }
        }
    }
    float fine = 0.0;
    for (int j = 1; j <= 4; ++j) {
        for (int i = 1; i <= 4; ++i) {
            float mean = 0.0;
            for (int b = -1; b <= 1; ++b) {
                for (int a = -1; a <= 1; ++a) {
                    mean += v[(j + b) * 6 + i + a];
                }
            }
            float d = v[j * 6 + i] - mean / 9.0;
            fine += d * d;
        }
    }
    fine = sqrt(fine / 16.0);
    // the plane through the 6x6: its slope per half px (least squares: sum x^2 = 6 x 17.5)
    vec2 slope = vec2(0.0);
    for (int j = 0; j < 6; ++j) {
        for (int i = 0; i < 6; ++i) {
            slope += vec2(float(i) - 2.5, float(j) - 2.5) * v[j * 6 + i];
        }
    }
    slope /= 105.0;
    frag = vec4(fine - EDGE * length(slope), hair_colour(srgb_to_lab(colour / 16.0)), 0.0, 1.0);
}
