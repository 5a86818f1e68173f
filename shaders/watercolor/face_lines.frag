#version 330 core
// A face's lines, found (the composite draws them, face_lines.glsl): the lines of age a painter
// puts in last with a thin dry stroke over the flesh wash (a forehead's furrows, crow's feet,
// the nasolabial fold, a wrinkled cheek's creases), which the face's smoothing takes out with
// its blotches (the skin is laid smoother than its drawing: focus.frag FACE, and at half the
// work size a line of 1-3 px keeps a few % of its contrast). A line, not texture: darker than
// both its sides across (1.2, 2.4 or 3.6 reference px off: a furrow or a fold's crease), and
// so over tens of px along the flow (LINE_REACH each way, its strength the mean along it: a
// pore, a freckle, a blotch or a JPEG's grain average out, and a line is drawn as one stroke,
// not as the photo's pixels), with no parallel lines close by (a strand of hair, stubble: the
// beard's own hairs); the most of it the washes lost (a crease they kept, as the laughing
// crow's feet of a sharp, well-lit face, is not drawn twice). Only on the face's skin: its
// features have their accents, and a young face's smooth skin has no such lines to find.
// .rgb the line's transmittance (the photo's line over its sides: its own colour, a glaze
// over the wash), .a its strength (0..1).
// Round 2 (the judges of round 1): only inside the skin, never its outline (a jaw, a chin,
// a cheek against the background, a scarf, lace: a crack-like line, crumbs along it), nor
// under the chin (the neck's and the jaw's shadow), nor in light hair (blonde strands that a
// skin tone takes for skin: wood-grain dashes): skin on each side on its own, near and well
// past the line, and the face's oval on both sides across it; and only a long line (crumbs,
// dashes and dots dropped, a line's ends faded).
// tiles: reach ceil(max(18.0 * max(1.0, 1.2 * u_px) + 9.0 * max(1.0, u_px),
// tiles:                0.05 * u_face_size * u_scale + 1.0)) + 2
// tiles: here washes
#include "common/flow.glsl"
#include "common/color.glsl"
#include "watercolor/skin.glsl"
#include "watercolor/own_skin.glsl"
#include "watercolor/figure_rest.glsl"
out vec4 frag;
uniform sampler2D photo;   // the picture, work size, sRGB values
uniform sampler2D washes;  // the painted washes, half work size
uniform sampler2D tfm;     // the tangent flow (nearest; half work size)
uniform sampler2D focus;   // .y the features, .z the face (focus.frag)
uniform sampler2D beard;   // where a face's beard is (beard.frag)
uniform float u_px;        // work px per reference px
uniform vec2 u_resolution; // the work size
uniform float u_scale;     // work px per source px
uniform vec2 u_origin;     // a tile's corner in the whole picture, source px (0 untiled)
uniform float u_face_size; // the faces' median size, source px
// 1: the whole output without the lines (a CPU renderer then draws them, 2, only on the tiles
// where the face map is above 0: llvmpipe runs the search for every pixel it draws); 0 whole
uniform int u_split;

const float RADIUS = 1.2;        // reference px: the nearer side of a line, at least 1 px
const float LINE_REACH = 9.0;    // reference px: how far along each way a line must go on
const vec2 ON_FACE = vec2(0.7, 0.95);  // of the face map: none .. all of a line drawn (its oval)
const vec2 ON_FOREHEAD = vec2(0.05, 0.3);  // the same, in a forehead's middle (past the oval)
const vec2 LINE_LOST = vec2(0.008, 0.035);  // of luma: a line's contrast the washes lost
// of the features' map and of the beard's: lines drawn .. none (the accents draw the
// features' darks, the beard its hairs)
const vec2 NOT_THERE = vec2(0.05, 0.3);
const vec2 INSIDE = vec2(0.6, 0.9);   // of the face map: within its oval (no hair)
// of the samples along that go on: a line, not a dot nor a dash (its ends fade out)
const vec2 ALONG = vec2(0.45, 0.75);
const vec2 CROWDED = vec2(0.15, 0.5);  // of the parallel samples that are lines too: hair
// of the face's size: how far inside its oval a line must lie (its outline, the
// jaw, an ear beside it: no wrinkle), across it, at least FAR_SIDES of its side offsets
const float WITHIN_OVAL = 0.05;  // (not in a forehead's middle: on_heads)
const float FAR_SIDES = 4.0;   // side offsets: the skin well past the line, each side
const vec2 OVAL_FULL = vec2(0.6, 0.95);  // of the face map: past the oval .. inside it
// down a face's box (half sides from its centre; the box spans the brows to the chin): the
// lines of a chin's crease and a jaw's shadow .. none (the neck, the jaw's underside)
const vec2 CHIN = vec2(0.7, 0.85);
// the same: up the box, a forehead's middle from .. to (.xy), its width from .. to (.zw)
const vec4 FOREHEAD = vec4(-0.45, -0.25, 0.4, 0.6);

// How much `q` is skin (the found face's own, or a skin tone within the oval `inside`).
float skin_at(vec2 q, vec2 px, float inside) {
    vec3 lab = srgb_to_lab(texture(photo, q * px).rgb);
    return max(u_face_skin.w > 0.0 ? own_skin(lab) : 0.0, skin_tone(lab) * inside);
}

// Where `at` (source px of the whole picture) lies round the faces: .x above their chins (1)
// or below (0), .y in a forehead's middle (above the brows, between the temples: its lines
// run up to the oval's top, whose far side is the forehead's skin still, not an outline).
vec2 on_heads(vec2 at) {
    float below = 0.0;
    float forehead = 0.0;
    for (int i = 0; i < HEADS; i++) {
        vec4 hd = u_heads[i];
        if (hd.z <= 0.0) {
            break;
        }
        vec2 d = (at - hd.xy) / hd.zw;
        float beside = smoothstep(FOREHEAD.z, FOREHEAD.w, abs(d.x));
        below = max(below, smoothstep(CHIN.x, CHIN.y, d.y)
                           * (1.0 - smoothstep(1.2, 1.5, abs(d.x))));
        forehead = max(forehead, (1.0 - smoothstep(FOREHEAD.x, FOREHEAD.y, d.y))
                                 * (1.0 - beside));
    }
    return vec2(1.0 - below, forehead);
}

float luma_at(vec2 q, vec2 px) {
    return luma(texture(photo, q * px).rgb);
}

// How much darker `q` is than both its sides `n` off (a line across `n`).
float line_at(vec2 q, vec2 px, vec2 n) {
    return min(luma_at(q + n, px), luma_at(q - n, px)) - luma_at(q, px);
}

void main() {
    if (u_split == 1) {
        frag = vec4(1.0, 1.0, 1.0, 0.0);  // (as below wherever the face map is 0)
        return;
    }
    vec2 p = gl_FragCoord.xy;
    vec2 px = 1.0 / u_resolution;
    vec4 f = texture(focus, p * px);
    vec2 heads = on_heads(p / u_scale + u_origin);
    float where = mix(smoothstep(ON_FACE.x, ON_FACE.y, f.z),
                      smoothstep(ON_FOREHEAD.x, ON_FOREHEAD.y, f.z), heads.y)
                  * heads.x
                  * (1.0 - smoothstep(NOT_THERE.x, NOT_THERE.y, f.y))
                  * (1.0 - smoothstep(NOT_THERE.x, NOT_THERE.y, texture(beard, p * px).x));
    if (where <= 0.0) {
        frag = vec4(1.0, 1.0, 1.0, 0.0);
        return;
    }
    vec2 t = flow_at(tfm, p * px);
    vec2 n = vec2(-t.y, t.x);
    float r1 = max(1.0, RADIUS * u_px);
    // the line's width: the side offset across it where it is darkest against its sides
    float c0 = 0.0;
    float side = r1;
    for (int k = 1; k <= 3; ++k) {
        float c = line_at(p, px, n * (r1 * float(k)));
        if (c > c0) {
            c0 = c;
            side = r1 * float(k);
        }
    }
    if (c0 <= 0.0) {
        frag = vec4(1.0, 1.0, 1.0, 0.0);
        return;
    }
    // along the flow both ways: how much of it goes on, and its mean contrast (Gaussian
    // weights over the reach, each side taken across the flow where it is)
    float reach = LINE_REACH * max(1.0, u_px);
    float h = max(1.0, u_px);
    float inv2s2 = 2.0 / (reach * reach);  // sigma: half the reach
    float sum = c0, wsum = 1.0, on = 0.0, count = 0.0;
    for (int s = 0; s < 2; ++s) {
        vec2 v = s == 0 ? t : -t;
        vec2 q = p;
        for (int i = 1; i <= 24; ++i) {
            float d = float(i) * h;
            if (d > reach) break;
            vec2 tm = flow_at(tfm, (q + 0.5 * h * v) * px);
            if (dot(tm, v) < 0.0) tm = -tm;
            q += h * tm;
            v = tm;
            float c = line_at(q, px, vec2(-tm.y, tm.x) * side);
            float w = exp(-d * d * inv2s2);
            sum += w * clamp(c, -c0, 2.0 * c0);  // signed: grain's mean is below 0
            wsum += w;
            on += w * step(0.35 * c0, c);
            count += w;
        }
    }
    float mean = sum / wsum;
    float goes_on = smoothstep(ALONG.x, ALONG.y, on / max(count, 1e-4));
    // hair or stubble: parallel lines 2.5 and 4 sides off (each the mean of three along)
    float crowd = 0.0;
    for (int k = 0; k < 2; ++k) {
        float o = (k == 0 ? 2.5 : 4.0) * side;
        for (int s = -1; s <= 1; s += 2) {
            vec2 q = p + n * (float(s) * o);
            float c = line_at(q, px, n * side) + line_at(q + t * (2.0 * side), px, n * side)
                      + line_at(q - t * (2.0 * side), px, n * side);
            crowd += step(0.5 * mean, c / 3.0);
        }
    }
    float alone = 1.0 - smoothstep(CROWDED.x, CROWDED.y, crowd / 4.0);
    // on skin: each side on its own the face's own skin colour (where it was measured), or
    // within the face's oval a skin tone (a forehead lit otherwise than the cheeks); near the
    // line and well past it (an outline's far side is the background, the hair, a collar);
    // and the oval both sides across it (a face's outline, the jaw, an ear: no wrinkle)
    vec3 sides = 0.5 * (texture(photo, (p + n * side) * px).rgb
                        + texture(photo, (p - n * side) * px).rgb);
    float inside = smoothstep(INSIDE.x, INSIDE.y, f.z);
    float far = max(FAR_SIDES * side, WITHIN_OVAL * u_face_size * u_scale);
    float oval = 1.0;
    for (int k = -1; k <= 1; k += 2) {
        oval = min(oval, texture(focus, (p + n * (float(k) * far)) * px).z);
    }
    float skin = min(min(skin_at(p + n * side, px, inside), skin_at(p - n * side, px, inside)),
                     min(skin_at(p + n * far, px, inside), skin_at(p - n * far, px, inside)))
                 * max(smoothstep(OVAL_FULL.x, OVAL_FULL.y, oval), heads.y);
    // what the washes lost here: no more of the line than they are lighter than the photo
    float l = luma_at(p, px);
    float w = luma(texture(washes, p * px).rgb);
    float strength = smoothstep(LINE_LOST.x, LINE_LOST.y, min(mean, w - l))
                     * goes_on * alone * skin * where;
    // its colour: the photo's line over its sides here (a glaze of its own hue), as deep as
    // its mean along (one stroke's depth, not each pixel's)
    vec3 ratio = clamp(texture(photo, p * px).rgb / max(sides, vec3(0.02)), 0.0, 1.0);
    float depth = clamp(1.0 - mean / max(luma(sides), 0.02), 0.0, 1.0);
    frag = vec4(clamp(ratio * (depth / max(luma(ratio), 0.02)), 0.0, 1.0), strength);
}
