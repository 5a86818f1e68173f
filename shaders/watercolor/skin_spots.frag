#version 330 core
// A face's spots, found (the composite lays them back, skin_spots.glsl): freckles, moles and
// small dark marks a few px across, which the face's smooth glazes take out with its blotches
// (the skin is laid smoother than its drawing, focus.frag FACE; at half the work size a 3 px
// freckle keeps a third of its depth; trial F11, finding 5: the freckled girls lost most of
// theirs, an old face its moles: "a retouching filter does this; a painter does not"). A
// painter keeps the sitter's signature as a scatter of small soft dabs over the smooth wash,
// the wash itself left smooth. A spot, not texture: darker than the five lightest of eight
// samples round it at twice its size (the other three may be its neighbours: freckles lie in
// clusters), with no two opposite samples nearer it as dark (a line: a furrow, a crease, which
// face_lines.frag draws), and a larger shadow or blotch has its ring as dark; its middle taken
// as the mean over half its size (a pore, a JPEG's grain, a print's dots average out), its size
// a share of the face's (a large face's pores are far smaller than its freckles); on the
// face's skin alone, the spot a darker skin itself (not hair beside an ear, a mouth's or a
// chin's shadow; its features have their accents, the beard its hairs, its lines of age
// their dry strokes); as far as the washes lost it. Each pixel is judged by the darkest place
// within reach of it (the spot's whole body comes with its middle). .rgb the spot's
// transmittance here (the photo's over the skin round it: its own colour), .a its strength.
// tiles: reach ceil(3.2 * 2.5 * max(1.0, u_px)) + 2
// tiles: here washes, lines, focus, beard
#include "common/color.glsl"
#include "watercolor/skin.glsl"
#include "watercolor/own_skin.glsl"
#include "watercolor/figure_rest.glsl"
out vec4 frag;
uniform sampler2D photo;   // the picture, work size, sRGB values
uniform sampler2D washes;  // the painted washes, half work size
uniform sampler2D focus;   // .y the features, .z the face (focus.frag)
uniform sampler2D beard;   // where a face's beard is (beard.frag)
uniform sampler2D lines;   // a face's lines of age (face_lines.frag: .a their strength)
uniform float u_px;        // work px per reference px
uniform vec2 u_resolution; // the work size
uniform float u_scale;     // work px per source px
uniform vec2 u_origin;     // a tile's corner in the whole picture, source px (0 untiled)
uniform float u_face_size; // the faces' median size (a box's long side, brows to chin), source px
// 1: the whole output without the spots (a CPU renderer then finds them, 2, only on the tiles
// where the face map is above 0); 0 whole
uniform int u_split;

const float SIZE = 0.012;  // of the face's size: a spot's radius (a freckle, a small mole)
const vec2 SIZE_PX = vec2(1.0, 2.5);  // the radius at least (work px), at most (reference px:
                                      // a large shaded blotch on a big face, a pore's shade, no)
const float REACH = 0.7;   // of the radius: how far a pixel looks for the spot's middle
const float RING = 2.0;    // of the radius: where the skin round a spot is sampled
// of the face map: within the mesh's oval (its fade past it lies on hair, an ear, a collar;
// blind round 1: crumbs over a knit collar, a sweater, a neck)
const vec2 INSIDE = vec2(0.85, 0.98);
// down a face's box (half sides from its centre; the box spans the brows to the chin): the
// face's skin .. none (the chin's shadow, the jaw's underside, the neck: face_lines' CHIN)
const vec2 CHIN = vec2(0.7, 0.85);
const vec2 BESIDE = vec2(0.9, 1.1);  // across the box: the cheeks .. none (an ear, the hair)
// of the features' map and of the beard's: spots laid .. none (the accents draw the
// features' darks, the beard its hairs)
const vec2 NOT_THERE = vec2(0.05, 0.3);
// of luma: under the skin round it, and the washes; a clear spot only (blind round 1: a
// print's halftone and rough grey skin came out as faint ringed crumbs)
const vec2 STANDS_OUT = vec2(0.035, 0.065);
const vec2 EVEN = vec2(0.35, 0.6);  // the skin round it: its unevenness over the spot's depth
// the darkest sample round it darker than it by (of its depth): a neighbouring spot .. an
// outline's far side
const vec2 EDGE = vec2(0.3, 0.6);
const float LINE_RING = 1.5;  // of the radius: where a line through a spot is looked for
const vec2 LINE = vec2(0.45, 0.75);  // the darker of two opposite samples there, lighter than
                                     // the spot by: a line .. a dot (of the spot's depth)

vec2 px;

vec3 rgb_at(vec2 q) {
    return texture(photo, q * px).rgb;
}

// The mean colour over a spot's middle at `q` (radius `m`: five samples, each a linear
// lookup): a pore or a JPEG's grain smaller than it averages out.
vec3 middle_at(vec2 q, float m) {
    return 0.2 * (rgb_at(q) + rgb_at(q + vec2(m, 0.0)) + rgb_at(q - vec2(m, 0.0))
                  + rgb_at(q + vec2(0.0, m)) + rgb_at(q - vec2(0.0, m)));
}

// How much a colour `lab` is skin (the found face's own, or a skin tone within its oval).
float skin_at(vec3 lab, float inside) {
    return max(u_face_skin.w > 0.0 ? own_skin(lab) : 0.0, skin_tone(lab) * inside);
}

// How much `at` (source px of the whole picture) lies on a face's own skin by its box: above
// its chin line and within its cheeks (the face map runs on down the neck: engine/neck.py).
float on_face_skin(vec2 at) {
    float on = 0.0;
    for (int i = 0; i < HEADS; i++) {
        vec4 h = u_heads[i];
        if (h.z <= 0.0) {
            break;
        }
        vec2 d = (at - h.xy) / h.zw;
        on = max(on, (1.0 - smoothstep(CHIN.x, CHIN.y, d.y))
                     * (1.0 - smoothstep(BESIDE.x, BESIDE.y, abs(d.x))));
    }
    return on;
}

// The spot of radius `r` (work px) that `p` belongs to, as main's output: its colour here
// and its strength (`where`, `inside`: main's).
vec4 spot_at(vec2 p, float r, float where, float inside) {
    float m = 0.5 * r;
    // the darkest place within reach: the spot's middle this pixel belongs to
    vec2 q = p;
    vec3 mid = middle_at(p, m);
    float l = luma(mid);
    for (int k = 0; k < 8; ++k) {
        float ang = 0.7853982 * float(k);
        vec2 o = p + REACH * r * vec2(cos(ang), sin(ang));
        vec3 c = middle_at(o, m);
        if (luma(c) < l) {
            l = luma(c);
            mid = c;
            q = o;
        }
    }
    // what the washes lost at the spot's middle (the same over its whole body: taken here, a
    // spot's middle, where the washes keep a little of it, was laid lighter than its rim: a
    // ring; blind round 1)
    float lost = luma(texture(washes, q * px).rgb) - l;
    if (lost <= STANDS_OUT.x) {
        return vec4(1.0, 1.0, 1.0, 0.0);
    }
    // the skin round it: eight samples at RING radii, sorted; the three darkest may be its
    // neighbours (freckles lie in clusters), the five lightest are the skin
    float v[8];
    vec3 sum = vec3(0.0);
    for (int k = 0; k < 8; ++k) {
        float ang = 0.7853982 * float(k) + 0.3926991;
        vec3 c = middle_at(q + RING * r * vec2(cos(ang), sin(ang)), m);
        v[k] = luma(c);
        sum += c;
    }
    // a line through it (a furrow, a crease: face_lines.frag's; a chin's crease) has two
    // opposite samples as dark as it, nearer than the skin's ring (one of eight at 45 degrees
    // lies within a thin line's width of it), where a dot has none
    float pair = 1.0;
    for (int k = 0; k < 4; ++k) {
        vec2 o = LINE_RING * r * vec2(cos(0.7853982 * float(k)), sin(0.7853982 * float(k)));
        pair = min(pair, max(luma(middle_at(q + o, m)), luma(middle_at(q - o, m))));
    }
    for (int i = 1; i < 8; ++i) {  // insertion sort, darkest first
        float x = v[i];
        int j = i - 1;
        while (j >= 0 && v[j] > x) {
            v[j + 1] = v[j];
            --j;
        }
        v[j + 1] = x;
    }
    float skin_l = 0.2 * (v[3] + v[4] + v[5] + v[6] + v[7]);
    float depth = skin_l - l;
    // the skin round it even (a spot on a smooth cheek), not a texture as deep as the spot
    // all round (a print's dots, coarse grain, rough skin: laid as the washes have it)
    float even = 1.0 - smoothstep(EVEN.x, EVEN.y, (v[7] - v[3]) / max(depth, 1e-3));
    // its neighbours about as dark as it, not far darker (across an outline: hair, a frame of
    // glasses, the background beside an ear)
    float no_edge = 1.0 - smoothstep(EDGE.x, EDGE.y, (l - v[0]) / max(depth, 1e-3));
    float dot_not_line = smoothstep(LINE.x, LINE.y, (pair - l) / max(depth, 1e-3));
    vec3 round_it = sum / 8.0;
    float strength = smoothstep(STANDS_OUT.x, STANDS_OUT.y, min(depth, lost)) * even
                     * dot_not_line * no_edge * skin_at(srgb_to_lab(round_it), inside)
                     * skin_at(srgb_to_lab(mid), inside) * where;
    if (strength <= 0.0) {
        return vec4(1.0, 1.0, 1.0, 0.0);
    }
    // its colour here: the photo's over the skin round it (a glaze of its own hue; the pixels
    // of the reach that are skin glaze nothing), no deeper than the spot's middle (an outline's
    // dark far side within reach is no part of it)
    vec3 here = middle_at(p, 0.25 * m);
    vec3 skin = round_it * skin_l / max(luma(round_it), 0.02);
    vec3 t = clamp(here / max(skin, vec3(0.02)), 0.0, 1.0);
    float lowest = l / max(skin_l, 0.02);
    t *= max(1.0, lowest / max(luma(t), 1e-3));
    return vec4(clamp(t, 0.0, 1.0), strength);
}

void main() {
    if (u_split == 1) {
        frag = vec4(1.0, 1.0, 1.0, 0.0);  // (as below wherever the face map is 0)
        return;
    }
    vec2 p = gl_FragCoord.xy;
    px = 1.0 / u_resolution;
    vec4 f = texture(focus, p * px);
    float inside = smoothstep(INSIDE.x, INSIDE.y, f.z);
    float where = inside * (1.0 - smoothstep(NOT_THERE.x, NOT_THERE.y, f.y))
                  * (1.0 - smoothstep(NOT_THERE.x, NOT_THERE.y, texture(beard, p * px).x))
                  * (1.0 - smoothstep(NOT_THERE.x, NOT_THERE.y, texture(lines, p * px).a));
    where *= on_face_skin(p / u_scale + u_origin);
    if (where <= 0.0 || u_face_size <= 0.0) {
        frag = vec4(1.0, 1.0, 1.0, 0.0);
        return;
    }
    float r = clamp(SIZE * u_face_size * u_scale, SIZE_PX.x, SIZE_PX.y * max(1.0, u_px));
    frag = spot_at(p, r, where, inside);
}
