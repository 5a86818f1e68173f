#version 330 core
// Watercolor composite at source resolution: the painted washes (with bleeding, gaps and
// overlaps) looked up with hand tremor, their dried borders made hard, blooms in wet washes,
// the features' accents, the vignette, then Bousseau's pigment densities from turbulence,
// dispersion, strokes, paper grain and the pooled wet edges, MNPR's granulation by pigment
// (none on skin), dry brush, outlines, a pencil underdrawing, the rigger's thin darks and
// tiny lights (not on a face), a person's jewellery laid back, coloured darks, one pigment's
// tint (a preset's), and finally the paper colour (pigment is transparent).
// tiles: reach ceil(u_wobble * u_px / u_scale) + ceil((8.0 * u_px + 2.0) / u_scale) + 2
#include "common/noise.glsl"
#include "common/pigment.glsl"
#include "common/color.glsl"
#include "common/canvas.glsl"
#include "watercolor/accents.glsl"
#include "watercolor/paper_tooth.glsl"
#include "watercolor/dither.glsl"
#include "watercolor/skin.glsl"
#include "watercolor/darks.glsl"
#include "watercolor/key.glsl"
#include "watercolor/feature_lift.glsl"
#include "watercolor/tint.glsl"
#include "watercolor/deckle.glsl"
#include "watercolor/granulation.glsl"
#include "watercolor/hard_edges.glsl"
#include "watercolor/figure_rest.glsl"
#include "watercolor/defocus.glsl"
#include "watercolor/high_key.glsl"
out vec4 frag;
uniform sampler2D washes;    // painted washes, sRGB values; .a wetness (half work size)
uniform sampler2D strokes;   // LIC of noise, mean 0.5
uniform sampler2D wet;       // wet-edge mask
uniform sampler2D edges;     // XDoG, 1 = paper, 0 = ink
uniform sampler2D paper;     // paper height, source resolution
uniform sampler2D wash;      // low-frequency noise: turbulence .x, tremor .yz
uniform sampler2D photo;     // the picture (work size, sRGB values)
uniform sampler2D focus;     // .y the facial features, .z the face (focus.frag)
uniform sampler2D defocus;   // how far out of focus the photo is (defocus.frag)
uniform sampler2D coarse;    // the photo widely blurred (CIELAB; the features' surround)
uniform sampler2D vignette;  // .x the edge's signed distance, .y the grade, .z how near the
                             // figure (vignette.frag)
uniform sampler2D margins;   // the same, of the paper margins without a face (margins.frag)
uniform sampler2D rigger;    // the thin darks and lights the washes lost (rigger.frag)
uniform sampler2D beard;     // where a face's beard is (beard.frag)
uniform sampler2D face_lines;  // a face's lines of age the washes lost (face_lines.frag)
uniform sampler2D jewels;    // a person's jewellery the washes lost (jewels.frag)
uniform sampler2D skin_spots;  // a face's freckles and moles the washes lost (skin_spots.frag)
uniform sampler2D canvas0;   // advected canvas layers (temporal coherence)
uniform sampler2D canvas1;
uniform int u_temporal;
uniform int u_history;
uniform int u_seed;
uniform int u_subject;  // a face was found
// 0: drawn whole; on a CPU renderer (which runs every branch for every pixel) in two parts
// (graph.py, PassSpec.split): 1 the whole picture but a face's feature accents, 2 all of it
// on the tiles where the features are (feature_tiles.frag): elsewhere the accents leave
// the colour as it is
uniform int u_split;
uniform float u_face_size;  // the faces' median size, source px (0: none)
uniform float u_margins;  // round a scene, the bare margin round the painting (margins.frag)
uniform float u_portrait;  // 0..1: how much a figure found is the picture's subject
uniform float u_subject_weight;  // ... and how much it is shown (a video's fades)
uniform int u_background;  // 0 painted, 1 loose wash, 2 bare paper (round a figure)
uniform float u_wobble;
uniform float u_dilution;
uniform float u_turbulence;
uniform float u_dispersion;
uniform float u_stroke_strength;
uniform float u_paper_grain;
uniform float u_edge_darkening;
uniform float u_hard_edges;
uniform float u_dry_brush;
uniform float u_outline_strength;
uniform float u_scale;       // work px per source px
uniform float u_px;          // work px per reference px
uniform vec3 u_paper_color;
uniform vec2 u_origin;  // a tile's corner in the whole picture, source px (0 untiled)

#include "common/canvas_noise.glsl"
#include "watercolor/blooms.glsl"
#include "watercolor/pencil.glsl"
#include "watercolor/rigger.glsl"
#include "watercolor/beard.glsl"
#include "watercolor/face_lines.glsl"
#include "watercolor/jewels.glsl"
#include "watercolor/skin_spots.glsl"

const float RIM = 0.29;  // the vignette edge's pooled pigment, per unit of wet edges
const float RIM_BAND = 4.0;  // reference px: how far in from the edge it pools
const float FACE_POOLING = 0.7;  // of the wet edges' pigment that does not pool on a face
const float FACE_TURBULENCE = 0.5;  // the most turbulence a face's skin takes (the default)
// A face's skin is laid as a thin, smooth wash: the sheet's tooth (its relief's light and
// shade) shows faintly through it, and little pigment settles in its grain; at the sheet's
// full relief cheeks and foreheads read as stucco (trial F10, finding 6: the tooth 0.9 of
// the fine texture on smooth skin, the grain most of the rest; 2.5-4x the photo's)
const float FACE_TOOTH = 0.4;  // of the sheet's tooth that shows on a face's skin
const float FACE_GRAIN = 0.5;  // of the paper grain's pigment density on a face's skin
const float FACE_SOFT = 0.75;  // of the hardness a face's glazes (not its features) give up
const float FACE_SKIN_FADE = 0.5;  // the face map's value from which its skin is all skin
const vec2 DRY_BORDER = vec2(0.002, 0.025);  // the border mask from which a dry brush skips
const float DRY_IN_DARKS = 0.45;  // of its skips a dry brush keeps in the darkest tones
const float DRY_ON_FACE = 0.85;  // of its skips a dry brush leaves out on a face's skin
const float OUTLINE_ON_PAPER = 0.3;  // of the ink where the painting dissolved into paper
const float DRY_DRAG = 0.8;  // how much the stroke (noise along the flow) decides a skip

// How much of the painting the vignette keeps here (0 bare paper .. 1 painted), from its
// edge's ramp `ramp` (vignette.frag's .x: 0.25 bare .. 0.75 painted). The edge is hard, a
// pixel wide, where the wash stopped and dried, and where it is lost (a wide ramp) the water
// carried the pigment out in feathered fingers: the edge's threshold wanders over the ramp
// with fine noise (on a hard edge it moves it a pixel or two), never a smooth airbrushed fade.
const float FEATHER_CELL = 10.0;  // reference px: the lobes' size
const float FEATHER = 0.3;        // of the ramp the threshold wanders over
// Round a figure the threshold wanders no faster than the ramp rises: where the ramp is
// shallow (on bare paper the figure's fade at the frame's borders: over a fifth of the short
// side, tens of px of ramp across a crown or a chest the frame cuts; a wash round the figure
// where it thins slowly) the noise's own slope outran it, and its lobes came loose as paper
// holes punched into the hair and crumbs of paint floating on the paper above it (trial F7,
// finding 1), specks and pinholes along the wash's edge (finding 3). Bounded, the edge stays
// one line, ragged by a quarter of a lobe at most there, as before where the ramp is steep.
const float FEATHER_SLOPE = 3.0;  // the noise's steepest slope, per cell (its two octaves,
                                  // renormalized by canvas_blend)
// .y: how far inside the edge, output px. `figure`: the edge round a figure (a vignette: its
// noise moves with the picture, and it stays one line, no islands nor holes: FEATHER_SLOPE)
// or the paper margins' (its noise stands on the frame). `fw`: the ramp's fwidth (at least
// 1e-4).
vec2 vignette_edge(float ramp, float fw, vec2 p, vec2 uv, float ref, bool figure) {
    float cell = FEATHER_CELL * ref;
    float n = figure
        ? 0.75 * canvas_noise(p, uv, cell, 801) + 0.25 * canvas_noise(p, uv, 0.35 * cell, 802)
        : 0.75 * value_noise(p / cell, u_seed, 801)
          + 0.25 * value_noise(p / (0.35 * cell), u_seed, 802);
    float wander = figure ? min(FEATHER, fw * cell / FEATHER_SLOPE) : FEATHER;
    float at = 0.5 + wander * (n - 0.5);
    float inside = (ramp - at) / fw;
    return vec2(clamp(0.5 + 0.5 * inside, 0.0, 1.0), inside);
}

// How far the edge's threshold wanders from 0.5: the noise lies within 0.5 +- 0.5 sqrt(2)
// (canvas_blend renormalizes two layers' contrast), so the threshold within FEATHER of that.
const float AT_REACH = FEATHER * 0.7072;

// A portrait's wash graded out towards where it stops (vignette.frag's .y `grade`: 0 at its
// edge .. 1 full): a painter thins it before it stops, the darker the sooner; dense to its
// edge a dark wash read as a cut-out (trial F3). Thinned as a thinner layer of the same
// pigment (Beer-Lambert: c^w), a dark wash keeps its hue as a light tint, where mixing it
// with the paper laid a flat grey fog. A light wash thins as it did (0.8 at its edge).
const float EDGE_VALUE = 0.6;  // the luma a dark wash is thinned to at its edge
float graded_out(vec3 c, float grade) {
    float l = clamp(luma(c), 1e-3, 0.999);
    float at_edge = clamp(log(EDGE_VALUE) / log(l), 0.25, 0.8);
    return mix(at_edge, 1.0, grade);
}

// The vignette's edge far from the figure (vignette.frag's .z, how near it: 1 at its outline
// .. 0 far out) pools this much of the pigment at its full rim: a light tide-line, not a dark
// cut round the background kept (trial F10, finding 1: a crisp cut line with a darker rim)
const float RIM_FAR = 0.4;

// How much of the painting is kept inside an edge `v` (vignette.frag's or margins.frag's
// .xy), and (.y) how much pigment pooled where the wash dried at it, in a band just inside.
// Where the ramp is past the threshold's reach (most of a picture: deep inside, or bare)
// the noise cannot move the answer, and is not drawn (a GPU's fragment rate is the frame's
// limit on a datacentre card: these two noises were drawn on every pixel).
vec2 framed(vec2 v, vec2 p, vec2 uv, float ref, bool figure) {
    float fw = max(fwidth(v.x), 1e-4);  // (derivatives before the branch)
    float band = RIM_BAND * ref;
    if ((v.x - (0.5 + AT_REACH)) / fw >= max(1.0, band)) {
        return vec2(v.y, 0.0);  // inside past the pooled band
    }
    if ((v.x - (0.5 - AT_REACH)) / fw <= -1.0) {
        return vec2(0.0);  // bare paper
    }
    vec2 edge = vignette_edge(v.x, fw, p, uv, ref, figure);
    return vec2(edge.x * v.y, edge.x * (1.0 - smoothstep(0.0, band, edge.y)));
}

// Bare paper round a figure: the figure ends in its own colour. The washes are smoothed
// across the photo's outline (and the vignette's cut lies on it within a pixel or two), so
// their last pixels inside the cut carry the background's colour: a 1-3 px rim of a blue wall
// round a head on white paper (trial F6: img24 a third of the outline). Within INSIDE_BAND of
// the innermost place the cut can reach, the washes are taken from that far inside, along
// the vignette's gradient (its .x grows into the figure), stepping back where a thin part
// (a finger, a strand) would be crossed to the paper on its other side.
const float INSIDE_BAND = 4.0;  // reference px inside the edge's reach (twice it at most: within
                             // the pass's tile reach)
vec3 inside_colour(vec3 c, vec2 uv, vec2 size, float ref) {
    vec2 texel = 1.0 / size;
    float band = INSIDE_BAND * ref;
    float here = textureLod(vignette, uv, 0.0).x;  // (no derivatives: called in a branch)
    if (here <= 0.0) {
        return c;  // out on the paper: nothing kept
    }
    // the direction into the figure, over the band (the ramp saturates a pixel or two in)
    vec2 g = vec2(textureLod(vignette, uv + vec2(band, 0.0) * texel, 0.0).x
                  - textureLod(vignette, uv - vec2(band, 0.0) * texel, 0.0).x,
                  textureLod(vignette, uv + vec2(0.0, band) * texel, 0.0).x
                  - textureLod(vignette, uv - vec2(0.0, band) * texel, 0.0).x);
    if (length(g) < 1e-3) {
        return c;  // far from the edge
    }
    vec2 dir = normalize(g) * texel;
    float inner = 0.5 + AT_REACH;  // the innermost the cut reaches
    float step = 0.25 * band;
    float shift = 0.0;
    float last = here;
    if (here >= inner) {  // inside: how far back out is that
        float back = band;
        for (int k = 1; k <= 4; ++k) {
            float v = textureLod(vignette, uv - dir * (float(k) * step), 0.0).x;
            if (v < inner) {
                back = (float(k) - (inner - v) / max(last - v, 1e-4)) * step;
                break;
            }
            last = v;
        }
        shift = band - back;
    } else {  // between the cut's reaches: how far on in
        float on = band;
        for (int k = 1; k <= 4; ++k) {
            float v = textureLod(vignette, uv + dir * (float(k) * step), 0.0).x;
            if (v >= inner) {
                on = (float(k) - (v - inner) / max(v - last, 1e-4)) * step;
                break;
            }
            last = v;
        }
        shift = band + on;
    }
    if (shift <= 0.0) {
        return c;
    }
    for (int k = 0; k < 3; ++k) {  // still inside the figure there (not across a thin part)
        if (textureLod(vignette, uv + dir * shift, 0.0).x >= max(here, inner)) {
            break;
        }
        shift *= 0.5;
    }
    return textureLod(washes, uv + dir * shift, 0.0).rgb;
}

void main() {
    vec2 size = vec2(textureSize(paper, 0));
    vec2 p = gl_FragCoord.xy;
    float ref = u_px / u_scale;  // source px per reference px
    // Hand tremor: displace the lookup by smooth low-frequency noise.
    vec2 wob = texture(wash, p / size).yz - 0.5;
    vec2 uv = (p + 2.0 * u_wobble * ref * wob) / size;
    vec4 painted = texture(washes, uv);  // .a: wetness
    vec4 focus_here = u_subject != 0 ? texture(focus, p / size) : vec4(0.0);
    float bearded = beard_here(beard, p / size, focus_here);
    // the photo's wide blur round here (Lab): a portrait's complexion and its features' skin
    vec3 around = u_subject != 0 ? texture(coarse, p / size).xyz : vec3(0.0);
    vec2 wash_g = u_hard_edges > 0.0 || u_blooms > 0.0
        ? wash_gradient(washes, uv, painted.rgb) : vec2(0.0);
    if (u_hard_edges > 0.0) {  // wet washes and a face's glazes keep soft borders
        float bare = u_subject != 0 ? focus_here.z * (1.0 - focus_here.y) : 0.0;
        // (but where a glaze's border faces the light: its dried edge)
        float soft = FACE_SOFT * bare * (1.0 - face_border_lit(wash_g));
        float hard = u_hard_edges * (1.0 - painted.a) * (1.0 - soft)
                   * (1.0 - defocused(defocus, p / size, focus_here));  // out of focus: wet
        // a sharp face's skin (to where its oval fades, not its features): hard only where
        // the photo breaks (a soft photo's breaks are as slow as its shading: kept)
        float inside = smoothstep(0.0, FACE_SKIN_FADE, focus_here.z);
        float skin = u_subject != 0 ? u_face_sharp * inside * (1.0 - focus_here.y) : 0.0;
        // and round a feature, sharp photo or soft: the eye's drawing (lids, lashes, iris,
        // catchlights) is the accents', at the photo's own size; the washes' borders there
        // are the socket's and the nose's soft shadows, hard only where the photo breaks
        // (dried all round, a socket's shadow was a dark blot wider than the eye: trial F10,
        // finding 8)
        skin = max(skin, u_subject != 0 ? inside * focus_here.y : 0.0);
        // and the hair round a face where it is laid graded along its flow (its hairline,
        // light hair: quantize.frag), sharp photo or soft: dried into terraces across a
        // combed head otherwise; clothes keep their hard edges (their folds)
        if (u_subject != 0) {
            vec3 laid = srgb_to_lab(clamp(painted.rgb, 0.0, 1.0));
            skin = max(skin, beyond_face(focus_here)
                             * hair_graded(head_round(p + u_origin), laid));
            skin = max(skin, bearded);  // a beard's graded washes (quantize.frag) alike
            // and a person's skin beyond the face (an arm, a hand: quantize.frag's
            // figure_skin, laid in the face's graded tones), told by the photo's colour
            // against the face's own: dried everywhere, a lit forearm was 4-5 hard-edged
            // bands (trial F11, finding 4); clothes of another colour keep their folds
            skin = max(skin, u_face_skin.w * beyond_face(focus_here)
                             * own_body_skin(srgb_to_lab(texture(photo, p / size).rgb),
                                             head_round(p + u_origin).x));
        }
        painted.rgb = hard_edged(washes, uv, painted.rgb, wash_g, size, ref, hard, photo, skin);
    }
    vec3 c = painted.rgb;
    if (u_subject != 0 && u_background == 2) {
        c = inside_colour(c, uv, size, ref);
    }
    if (u_blooms > 0.0) {  // a uniform branch: blooms take the noise's screen derivative
        c = bloomed(c, 1.0 - smoothstep(0.004, 0.015, length(wash_g)), p + u_origin, uv, ref,
                    painted.a, focus_here.z);
    }
    float turb = texture(wash, uv).x;

    // Watercolor is thinned, transparent paint: the paper shows through every wash (a pale
    // look's less through a person's dark skin: darks.glsl's diluted_skin).
    if (u_subject != 0 && u_dilution > SKIN_DILUTION) {
        // the complexion: the skin round here, or the texel's own where lighter (a small
        // face's wide blur takes in its dark surround)
        vec3 seen = srgb_to_lab(texture(photo, p / size).rgb);
        c = diluted_skin(c, u_dilution, person_skin(seen, focus_here),
                         max(around.x, seen.x) / 100.0);
    } else {
        c = diluted(c, u_dilution);
    }
    // The vignette: the wash stops at a hard, ragged edge where pigment pools a little.
    float on_face = 0.0;  // less pooling on a face: its glazes meet softly, not in rims
    float washed = 1.0;  // how much of the painting is kept here (0: dissolved into paper)
    vec2 stated = vec2(0.0);  // a feature's dark stated here, the face's greyness
    if (u_subject != 0) {
        on_face = focus_here.z;
        if (u_split != 1) {
            vec2 lift = focus_here.y > 0.0 ? feature_lift(around, u_dilution) : vec2(0.0);
            c = feature_accents(c, photo, p / size, focus_here.y, u_face_size / ref, ref,
                                u_scale, around, lift, u_paper_color, stated);
        }
        if (bearded > 0.0) {
            c = beard_hairs(c, photo, p / size, bearded, texelFetch(paper, ivec2(p), 0).r);
        }
        // a pale person's thin darks the washes lost (a finger's gap, the jaw's shadow side);
        // asked first of the face's key, a uniform: a CPU renderer runs both sides otherwise
        if (high_key_face() > 0.0) {
            float pale_skin = person_skin(srgb_to_lab(texture(photo, p / size).rgb),
                                          focus_here) * (1.0 - focus_here.y);
            c = high_key_lines(c, photo, p / size, washes, uv, texture(washes, uv).rgb,
                               pale_skin, ref, size);
        }
    }
    if (u_subject != 0 || u_margins > 0.0) {
        // round a portrait's figure the vignette's edge, round a scene the paper margins';
        // a video turning from one to the other (a figure walking away) cross-fades them:
        // moved part way, either edge would scatter islands over the paper
        float portrait = u_subject != 0 ? u_portrait * u_subject_weight : 0.0;
        vec2 kept = vec2(1.0, 0.0);  // painted to the frame's borders
        if (portrait < 1.0 && u_margins > 0.0) {
            kept = framed(texture(margins, uv).xy, p + u_origin, uv, ref, false);
        }
        if (portrait > 0.0) {
            vec3 v = texture(vignette, uv).xyz;
            float w = graded_out(c, v.y);
            c = mix(c, pow(max(c, vec3(1e-3)), vec3(w)), portrait);
            // the edge alone (the thinned wash still dries with its rim)
            kept = mix(kept, framed(vec2(v.x, 1.0), p + u_origin, uv, ref, true)
                             * vec2(1.0, mix(RIM_FAR, 1.0, v.z)), portrait);
        }
        washed = kept.x;
        c = pigment(mix(vec3(1.0), c, washed), 1.0 + RIM * u_edge_darkening * kept.y);
    }
    float h = texelFetch(paper, ivec2(p), 0).r;
    // Terms whose weight is 0 (the default for several) cost nothing: uniform branches.
    // on a face at most FACE_TURBULENCE's blotches: strong ones mottle skin like a disease
    c = pigment(c, density(turb, mix(u_turbulence, min(u_turbulence, FACE_TURBULENCE),
                                     focus_here.z)));
    if (u_dispersion > 0.0) {
        c = pigment(c, density(canvas_noise(p + u_origin, uv, 3.0, 301), u_dispersion));
    }
    float stroke = 0.5;
    if (u_stroke_strength > 0.0 || u_dry_brush > 0.0) {
        stroke = texture(strokes, uv).r;
        c = pigment(c, density(stroke, u_stroke_strength));
    }
    c = pigment(c, density(1.0 - h, u_paper_grain * mix(1.0, FACE_GRAIN, on_face)));
    float border = texture(wet, uv).r;  // how near a wash's border (wet_edges.frag)
    c = pigment(c, 1.0 + u_edge_darkening * (1.0 - FACE_POOLING * on_face) * (1.0 - painted.a)
                         * border);
    if (u_granulation > 0.0) {
        c = granulated(c, h, on_face);
    }
    if (u_dry_brush > 0.0) {
        // Dry brush: the brush skips the paper's valleys, leaving the substrate bare, where a
        // stroke ends (near a wash's border) and more in the lights than in the darks, not
        // as specks all over (issue 29: dry brush at stroke ends, on the raised tooth), and
        // hardly on a face.
        float thr = 0.6 * u_dry_brush;
        float skips = 1.0 - smoothstep(thr - 0.04, thr + 0.04,
                                       h + DRY_DRAG * (stroke - 0.5));  // streaks along it
        float ends = smoothstep(DRY_BORDER.x, DRY_BORDER.y, border)
                     * mix(DRY_IN_DARKS, 1.0, smoothstep(0.15, 0.6, luma(c)))
                     * (1.0 - DRY_ON_FACE * on_face);  // skin is laid wet: no white scars
        c = mix(c, vec3(1.0), skips * ends);
    }
    if (u_outline_strength > 0.0) {
        // lighter where the painting dissolved into paper: no heavy bars in an empty sheet;
        // none where bare paper was asked for round the figure
        float on_paper = u_background == 2 ? 0.0 : OUTLINE_ON_PAPER;
        c *= mix(1.0, texture(edges, uv).r, u_outline_strength * mix(on_paper, 1.0, washed));
    }
    if (u_pencil > 0.0) {
        c = pencilled(c, edges, uv, p + u_origin, ref, size, texture(focus, p / size).x);
    }
    if (u_rigger > 0.0) {  // drawn on the photo's lines, not the wobbled washes'
        vec2 rigger_texel = 1.0 / vec2(textureSize(photo, 0));  // (the rigger's size)
        c = rigged(c, rigger_round(rigger, p / size, rigger_texel), h, p + u_origin, ref,
                   texture(photo, p / size).rgb, washed);
    }
    if (u_subject != 0) {  // a face's lines of age, drawn on the photo's lines too
        vec2 lines_texel = 1.0 / vec2(textureSize(photo, 0));  // (the lines' size)
        c = face_lined(c, face_lines_wide(face_lines, p / size, lines_texel), h, p + u_origin,
                       ref, washed);
        c = jewelled(c, texture(jewels, p / size).r, texture(photo, p / size).rgb, washed);
        c = spotted(c, texture(skin_spots, p / size), washed);
    }
    // a face's darkest accents laid deeper than the sheet's (darks.glsl: FACE_DARKEST)
    c = pigment_darks(c, mix(DARKEST, FACE_DARKEST, on_face));
    c = stated_chroma(c, stated);
    c = tinted(c);
    if (u_paper_tooth > 0.0) {
        c = paper_tooth(c, h, texelFetch(paper, tooth_light(ivec2(p), ivec2(size), ref), 0).r,
                        ref, mix(1.0, FACE_TOOTH, on_face));
    }
    c = deckled(c * u_paper_color, p + u_origin, u_seed);
    frag = vec4(dithered(c, ivec2(p + u_origin), u_seed), 1.0);
}
