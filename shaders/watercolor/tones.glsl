// Wash tones: soft luminance quantization (Winnemöller et al. 2006) of abstracted Lab into
// n levels, like the layers of a watercolor laid light to dark. Steps are crisp where the
// tone changes fast and soft in smooth gradients (graded washes, no contour bands;
// Winnemöller's gradient-adaptive sharpness). The thresholds wander with smooth noise (hand
// tremor on the borders, moving with the content), the lightest tones are reserved as bare
// paper, and the colours are more saturated. Shared by quantize.frag (per pixel) and
// draft_tones.frag (a draft's sub-pixels).
uniform int u_quantize_levels;
uniform float u_quantize_sharpness;
uniform float u_tremor;
uniform float u_highlights;
uniform float u_saturation;
uniform float u_skin_saturation;
uniform float u_shapes;  // 0..1: how much the background's washes are laid as shapes
uniform float u_figure_shapes;  // how much of its own detail a figure's hair and clothes keep
uniform float u_hair_flow;  // 0..1: how much a figure's hair and clothes follow their strands
uniform float u_wash_size;  // the wide wash's sigma, reference px (0: no wide wash)
uniform float u_face_size;  // the faces' median size, source px (0: none found)
#include "watercolor/own_skin.glsl"
#include "watercolor/key.glsl"
uniform int u_subject;  // a face was found (else the focus is the saliency: no face to lay)
uniform int u_figure_laid;  // 1: the figure's shapes were laid this frame (0: a cheap draft)

#include "watercolor/figure_rest.glsl"

// A figure beyond its face and features (hair, clothes), 0..1, where its shapes were laid
// (a face found, not a cheap draft); else 0.
float figure_rest(vec4 focus) {
    if (u_subject == 0 || u_figure_laid == 0) {
        return 0.0;
    }
    return beyond_face(focus);
}

// How much a texel's tones follow the strands (strands.frag: the abstraction smoothed along
// its flow) rather than its own detail or shapes: a found figure's hair and clothes, laid in
// long shapes along the hair and the folds (`hair_flow`).
float along_flow(vec4 focus) {
    return u_hair_flow * figure_rest(focus);
}

// How much a texel's washes are laid as shapes, from the focus map (.y the features, .z the
// face, .w the figure): the style's `shapes`, and on a figure beyond its face (hair, clothes)
// all of it: they become a few shapes, not the photo's texture in tone bands (camouflage).
float shape_weight(vec4 focus) {
    return max(u_shapes, figure_rest(focus));
}

// What the tones follow away from the subject: the picture widely blurred (`coarse`) or, with
// shapes (weight `sh`), its shapes' graded washes (watercolor/shapes.glsl).
vec3 wide_wash(vec3 coarse, vec3 shapes, float sh) {
    return sh > 0.0 ? mix(coarse, shapes, sh) : coarse;
}

// How much of the abstraction's own detail the tones keep at `subject` (focus times
// detail): the rest follows wide_wash. With shapes, which are the background's drawing, less
// of it away from the subject and all of it on the subject proper, but for a figure's hair
// and clothes (u_figure_shapes).
float own_share(float subject, float sh, vec4 focus) {
    float blurred = 0.4 + 0.6 * subject;
    float own = mix(blurred, mix(0.15, 1.0, smoothstep(0.0, 0.7, subject)), sh);
    return mix(own, min(own, u_figure_shapes), figure_rest(focus));
}

// The shapes' lightness gradient (L* per texel of `shapes`) at `uv`, if they are laid.
vec2 shapes_gradient(sampler2D shapes, vec2 uv, float sh) {
    if (sh <= 0.0) {
        return vec2(0.0);
    }
    vec2 t = 1.0 / vec2(textureSize(shapes, 0));
    vec2 dx = vec2(t.x, 0.0), dy = vec2(0.0, t.y);
    return 0.5 * vec2(texture(shapes, uv + dx).x - texture(shapes, uv - dx).x,
                      texture(shapes, uv + dy).x - texture(shapes, uv - dy).x);
}

// What is laid, mixed from the wide wash (gradient `wide_g`, L* per texel) and the
// abstraction (`g`) by own_share `own_k`: (.x) its change per texel, which bounds its steps
// (step_limit), and (.y) the gradient whose steepness makes them crisp (tone_slope). The
// wide blur's own change is small; the shapes' is their borders': steps crisp there and soft
// inside a shape, whatever its texture.
vec2 laid_change(vec2 g, vec2 wide_g, float own_k, float sh) {
    if (sh <= 0.0) {
        return vec2(own_k * length(g), length(g));
    }
    float change = length(mix(wide_g, g, own_k));
    return vec2(change, mix(length(g), change, sh));
}
#include "watercolor/skin.glsl"

// How much a texel is a person's skin to the key (key.glsl's keyed_skin; skin.glsl's
// person_skin), none without a subject.
float key_skin(vec3 lab, vec4 focus) {
    if (u_subject == 0) {
        return 0.0;
    }
    return person_skin(lab, focus);
}

// The chroma gain of a colour: the pigment saturation, but on vivid skin tones (pale to
// dark) at most the skin's: a painter keeps flesh near the photo's (1.45 turned warm-lit
// faces orange), while dull, grey-lit skin keeps the boost (held back, it looked dead).
// On a face's flesh (`flesh`: face_tone's, 0..1) a tone near the found face's own hue
// (u_face_skin) has its vividness judged at the face's own lightness: a shadow on the skin is
// the same flesh less lit, its chroma lower by about as much as its lightness (at most
// SHADE_VIVID times), not grey-lit skin. Judged at its own, a vivid face's shadows (C* 12-24)
// took up to the whole 1.45, kept from the dilution as the darks are: redder and more
// saturated than the photo's (trial F9, finding 9). Hair, clothes and the background (their
// tones are not the flesh's) as before.
const float SHADE_VIVID = 2.0;
const vec2 SHADE_HUE = vec2(25.0, 12.0);  // degrees off the face's hue: not its flesh .. its
float chroma_gain(vec3 lab, float flesh) {
    float skin = skin_tone(lab);
    float c = length(lab.yz);
    float seen = c;
    float face_c = length(u_face_skin.yz);
    if (flesh > 0.0 && u_face_skin.w > 0.0 && face_c > 1e-3 && c > 1e-3) {
        float off = degrees(acos(clamp(dot(lab.yz, u_face_skin.yz) / (c * face_c), -1.0, 1.0)));
        float lift = clamp(u_face_skin.x / max(lab.x, 1.0), 1.0, SHADE_VIVID);
        seen = c * mix(1.0, lift, flesh * smoothstep(SHADE_HUE.x, SHADE_HUE.y, off));
    }
    float vivid = smoothstep(12.0, 24.0, seen);
    float gain = mix(u_saturation, min(u_saturation, u_skin_saturation), skin * vivid);
    // a pigment has its limit: colours already vivid are boosted less (a saturated red
    // pushed further reads garish), never dulled
    return gain > 1.0 ? 1.0 + (gain - 1.0) * (1.0 - smoothstep(30.0, 70.0, c)) : gain;
}

// How fast the tone changes, from its change per pixel of a target with `px` pixels per
// reference pixel: per reference pixel, so steps are as crisp on a thumbnail as on a phone's
// 12 MP photo, times 2: wash_tone's thresholds were tuned on photos 1280 px wide (850 to
// 1280 lines), whose look this keeps in between.
float tone_slope(float per_px, float px) {
    return 2.0 * per_px * px;
}

// The sharpest step this target holds without stair-steps where its tone changes by
// `change` L* per pixel: one STEP_PX of its pixels wide. The washes are laid at half the work
// size; the composite's hard edges make their borders crisp again at the output's size,
// along smooth outlines (a step sharper than a texel, enlarged, is a staircase).
const float STEP_PX = 1.5;
float step_limit(float change) {
    return 4.0 / (STEP_PX * max(change, 1e-3));
}

// The tone of `lab` (already drawn towards the wide blur away from the subject) in `n` levels
// with steps of sharpness `sharp`; `subject`: focus times detail; `wander`: the wash noise
// (0..1) that moves the thresholds; `reserve`: how little paper is left bare in the highlights
// (the subject's: a face is not punched with holes); `skin`: key_skin's; `flesh`: how much
// it is a face's flesh (face_tone's; chroma_gain).
vec3 wash_tone_sharp(vec3 lab, float sharp, float subject, float wander, float n,
                     float reserve, float skin, float flesh) {
    float shift = u_tremor * 2.5 * (wander - 0.5);  // in tone steps
    float base = keyed_skin(lab.x / 100.0, skin);
    float L = base + shift / n;
    float qn = floor(L * n + 0.5) / n;
    float q = qn + (smoothstep(-2.0, 2.0, sharp * 100.0 * (L - qn)) - 0.5) / n;
    q = mix(q, base, 0.5 * subject);
    // Highlights: above the threshold the paper is left bare (no pigment, no colour); less
    // on the subject, where a bare patch would punch a hole in a face.
    float bare = 0.0;
    if (u_highlights > 0.0) {
        float thr = 1.0 - 0.25 * u_highlights * (1.0 - 0.6 * reserve);
        float soft = 0.5 / (sharp * 25.0);
        bare = smoothstep(thr - soft, thr + soft, L);
    }
    q = mix(clamp(q, 0.0, 1.0), 1.0, bare);
    return vec3(q * 100.0, lab.yz * chroma_gain(lab, flesh) * (1.0 - bare));
}

// The tone of `lab` in `n` levels with steps `soft_k` times as sharp, at most `limit`
// (step_limit's); `slope`: tone_slope's (see wash_tone_sharp).
vec3 wash_tone_n(vec3 lab, float slope, float subject, float wander, float n, float soft_k,
                 float reserve, float limit, float skin) {
    float sharp = min(limit, soft_k * u_quantize_sharpness
                             * mix(0.04, 1.0, smoothstep(0.2, 1.5, slope)));
    return wash_tone_sharp(lab, sharp, subject, wander, n, reserve, skin, 0.0);
}

// The tone of `lab` in the style's levels (see wash_tone_n); `change`: its L* per pixel.
vec3 wash_tone(vec3 lab, float slope, float subject, float wander, float change,
               float skin) {
    return wash_tone_n(lab, slope, subject, wander, float(u_quantize_levels), 1.0, subject,
                       step_limit(change), skin);
}

// A face's skin as a portraitist lays it: the form (the abstraction drawn halfway to the wide
// blur, so the photo's small light contours go) in FACE_LEVELS tones with soft steps: one
// flesh wash and a shadow glaze or two.
const float FACE_LEVELS = 3.0;
const float FORM = 0.45;  // of the abstraction in the face's form (the rest: the wide blur)
// The face's steps graded: a tone's ramp spans its whole interval (sharpness 4 n / 100, where
// wash_tone's ramps just meet), whatever the photo's slope there. Steeper (by the slope, as
// elsewhere), a light's border jumped by half a tone (16 L*) within 3 L* of the form, and its
// lights became pale, hard-edged blotches on cheeks and noses; softer, the tones jump at the
// intervals' borders instead.
const float FACE_GRADE = 4.0;

// How much of a texel is face skin to lay so, from the focus map (.z the face): the features
// too. Their drawing is the accents' (accents.glsl, at full size); laid in the wash's own
// tones where the features' map rose (as they were), each eye and brow sat in a patch of the
// photo's tones whose rim, where the map fell to 0.2-0.6, crossed temple and cheek.
float face_skin(vec4 focus) {
    if (u_subject == 0) {
        return 0.0;
    }
    return focus.z;
}

// How much of the abstraction a face's form keeps (face_tone's `form`): FORM, and more of it
// on a face small against the wide wash (`wash` its sigma, `face` the faces' median size,
// both in work px; 0: none found): a wash a sixth of a face wide blurs a group's faces into
// smudges, their eyes gone, where it takes only the photo's small light contours from a
// face that fills the frame (from a wash a fourteenth of the face to a sixth).
const vec2 FORM_SMALL = vec2(0.07, 0.17);  // the wash's sigma over the face: FORM .. all
float face_form(float wash, float face) {
    return face > 0.0 ? mix(FORM, 1.0, smoothstep(FORM_SMALL.x, FORM_SMALL.y, wash / face))
                      : FORM;
}

// ... and where the features are (the focus map's .y), all of their own form: an eye, a brow
// keep their darks in the face's soft tones, graded out over the map's falloff (no rim).
float feature_form(float form, vec4 focus) {
    return mix(form, 1.0, focus.y);
}

// ... but a face's gentle modelling whole (trial F9, finding 7): the abstraction's lightness
// within a few L* of the wide blur (a soft, front-lit webcam face's nose side, the plane under
// its cheekbone, 3-8 L* in the photo) is kept as the photo has it, only what stands well off
// it (a strong light's contour, a shine) drawn halfway to the blur as before: at FORM the
// soft face's modelling fell to 0.82-0.86 of the photo's, a flat beige mask. The share
// falls with the offset as a Gaussian of MODELLING L*: the form stays monotonic in the
// abstraction (its slope at least 0.2 at FORM), so no terrace or tide-line where it falls.
const float MODELLING = 20.0;
float modelling_form(float form_k, float offset) {
    return mix(form_k, 1.0, exp(-0.5 * offset * offset / (MODELLING * MODELLING)));
}

vec3 face_tone(vec3 lab, vec3 coarse, float wander, float change, float form_k,
               float skin) {
    form_k = modelling_form(form_k, lab.x - coarse.x);
    vec3 form = mix(coarse, lab, form_k);
    // paper only on the brightest planes: a bare patch would punch a hole in the face
    float sharp = min(step_limit(form_k * change), FACE_GRADE * FACE_LEVELS / 100.0);
    return wash_tone_sharp(form, sharp, 1.0, wander, FACE_LEVELS, 1.3, skin, skin);
}

// Hair as a painter lays it (trial F4, finding 1): one or two soft washes along its flow
// (the strands' tones), its darker strokes where the strands are darker, its lights left as
// paper: HAIR_LEVELS tones graded as a face's (HAIR_GRADE), not the wash's six crisp ones,
// which laid a combed head's slow ramp from its shadow side to its lit crown as flat
// terraces with hard borders across the comb.
const float HAIR_LEVELS = 3.0;
const float HAIR_GRADE = 4.0;  // as FACE_GRADE: each tone's ramp spans its interval
const float HAIR_SKIN_RESERVE = 1.3;  // as a face's (face_tone): no paper on skin
vec3 hair_tone(vec3 lab, float subject, float wander, float change, float skin) {
    float sharp = min(step_limit(change), HAIR_GRADE * HAIR_LEVELS / 100.0);
    // the borders wander as far (L*) as the wash's: its tremor is in tone steps, and a
    // hair tone is two of them (blotches)
    wander = 0.5 + (wander - 0.5) * HAIR_LEVELS / max(float(u_quantize_levels), 1.0);
    // its lights left as paper, but not a skin tone's (`skin`: key_skin's): the forehead
    // where the hairline's flow runs into it was punched pale under the hair (trial F7, 6)
    return wash_tone_sharp(lab, sharp, subject, wander, HAIR_LEVELS, HAIR_SKIN_RESERVE * skin,
                           skin, 0.0);
}

// How much a texel is a person's head round its face (hair, an ear, the face's fade into the
// background), 0..1, from the focus map: the face map's fade past the oval and the figure
// beyond the face, not the face's own skin within it, nor its features.
const vec2 FACE_INSIDE = vec2(0.75, 1.0);  // the face map: its fade .. its oval
float round_face(vec4 focus) {
    if (u_subject == 0) {
        return 0.0;
    }
    return max(focus.z, focus.w) * (1.0 - smoothstep(FACE_INSIDE.x, FACE_INSIDE.y, focus.z))
           * (1.0 - focus.y);
}

// Hair beside a face keeps its own colour (trial F4, finding 2): round the face (`round_k`:
// round_face's) a tone takes the hue of its own colour `own`, not the face's form's (half the
// wide wash's, `coarse`: the flesh's), and a colour less chromatic than the flesh round it,
// grey or white hair, at no more than its own chroma (the saturation boosted it more than
// the flesh, which is held at the skin's): white hair beside a warm face turned to salmon
// and amber blotches. The flesh round the face (an ear, a temple) has the hue of the wide
// wash and its chroma: kept.
const vec2 GREYER = vec2(0.9, 0.6);  // its chroma over the flesh's round it: kept .. grey
vec3 own_colour(vec3 tone, vec3 own, vec3 coarse, float round_k) {
    float c = length(own.yz);
    if (round_k <= 0.0 || c < 1e-3) {
        return tone;
    }
    float laid = length(tone.yz);  // (0 on bare paper)
    float grey = smoothstep(GREYER.x, GREYER.y, c / max(length(coarse.yz), 1e-3));
    vec2 ab = own.yz * (mix(laid, min(laid, c), grey) / c);
    return vec3(tone.x, mix(tone.yz, ab, round_k));
}

// A face's shine left as paper by its first flesh wash (forehead, nose bridge, cheekbone,
// lower lip; trial F3, finding 5), 0..1: where the abstraction `own` rises over the skin
// round it (`coarse`, the wide wash) well towards white, and is whiter than it (a shine, not
// a lit plane of the skin's colour). `beside`: the wide wash's change over its sigma (L*):
// skin beside dark hair or an eye rises over a wide wash the dark drew down, and is no shine.
const vec2 SHINE_HEADROOM = vec2(0.25, 0.4);  // of the way from the skin round it to white
const vec2 SHINE_RISE = vec2(5.0, 9.0);       // L* over the skin round it
const vec2 SHINE_L = vec2(65.0, 75.0);        // L*: a dim face's lightest is no shine
const vec2 SHINE_WHITE = vec2(0.15, 0.35);    // of the chroma round it given up
const vec2 SHINE_BESIDE = vec2(0.5, 0.9);     // `beside` per L* of the rise
float face_shine(vec3 own, vec3 coarse, float beside) {
    float rise = own.x - coarse.x;
    float round_c = length(coarse.yz);  // grey (a grey photo): no whiteness to tell
    float white = (1.0 - length(own.yz) / max(round_c, 8.0)) * smoothstep(4.0, 10.0, round_c);
    float shine = smoothstep(SHINE_HEADROOM.x, SHINE_HEADROOM.y,
                             rise / max(100.0 - coarse.x, 5.0))
                  * smoothstep(SHINE_RISE.x, SHINE_RISE.y, rise)
                  * smoothstep(SHINE_L.x, SHINE_L.y, own.x)
                  * smoothstep(SHINE_WHITE.x, SHINE_WHITE.y, white)
                  * (1.0 - smoothstep(SHINE_BESIDE.x, SHINE_BESIDE.y, beside / max(rise, 1.0)));
    return smoothstep(0.2, 0.7, shine);  // its border dried, but no cut-out dot
}

// The wide wash's change over its sigma at a texel (face_shine's `beside`): its screen
// derivatives (uniform control flow) times its sigma in texels of this target (`texels`:
// this target's per reference px).
float wide_change(float coarse_l, float texels) {
    return length(vec2(dFdx(coarse_l), dFdy(coarse_l))) * u_wash_size * texels;
}

// How much of along_flow a texel takes, from its colour `lab` and the flow's coherence along
// its streamline (strands.frag .w): skin whose flow is not strand-like (an arm, a face the
// detector missed in a group) keeps its shapes, smeared it loses its features; hair, even
// red or blond, is strand-like.
const vec2 STRAND_COHERENCE = vec2(0.55, 0.8);  // skin's flow below: not strands
float strand_like(vec3 lab, float coherence) {
    return 1.0 - skin_tone(lab)
                 * (1.0 - smoothstep(STRAND_COHERENCE.x, STRAND_COHERENCE.y, coherence));
}

// How much a texel is a person's own skin beyond the face's oval, 0..1 (trial F7, finding 6;
// trial F8, findings 8 and 4): the forehead up to the hairline, a temple, an ear, a hand, an
// arm: on the figure beyond the face (figure_rest), the face's own skin colour (own_skin;
// `lab`: the abstraction's) that is not strands (`strand`: strand_like's, 0 without strands)
// or is as smooth as skin (`change`: its L* per texel; the flow of a smooth forehead, filled
// in from the hairline, is as coherent as combed hair's). A skin tone counts in the band
// round the head (`head`: head_round's: a hairline darker than the cheeks); beyond it only
// the face's own colour, where it was measured: over the whole figure skin_tone took warm
// brown hair, tan clothes, for skin. A grey face's (a grey photo: a white collar, a grey
// shirt as light as its skin) in that band only. Laid as the face's skin is (face_tone):
// taking neither the face's tones nor the hair's (or the hair's with its lights left as
// paper), it was laid as clothes, 70 % the figure's shape in the wash's six crisp tones with
// its lights reserved as bare paper: under the hairline a pale ledge, a brown terrace over
// it and a JPEG block's step drawn as a straight-sided rectangle; on a hand by the face, the
// sheen on its fingers cut out as paper-white plateaus with hard rims, its knuckles as
// concentric terraces.
const vec2 SKIN_SMOOTH = vec2(3.0, 1.5);  // L* per texel: hair's texture .. skin's
const vec2 SKIN_GREY = vec2(4.0, 8.0);  // the face's chroma: a grey photo's .. coloured skin
float figure_skin(vec4 focus, vec3 lab, float strand, float change, vec2 head) {
    float band = head.x * head.y;
    float told = u_face_skin.w * smoothstep(SKIN_GREY.x, SKIN_GREY.y, length(u_face_skin.yz));
    // (without a measured colour, `told` 0: a skin tone in the band only)
    float smooth_k = smoothstep(SKIN_SMOOTH.x, SKIN_SMOOTH.y, change);
    float own = u_face_skin.w > 0.0
        ? max(own_skin(lab), own_body_skin(lab, head.x) * smooth_k) * mix(band, 1.0, told)
        : 0.0;
    float tone = max(own, skin_tone(lab) * band);
    float skin = tone * max(1.0 - strand, smoothstep(SKIN_SMOOTH.x, SKIN_SMOOTH.y, change));
    return figure_rest(focus) * skin;
}
