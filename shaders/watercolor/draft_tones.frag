#version 330 core
// A draft's wash tones (issue 12), at the small size its washes are laid at, as a full-size
// render would lay them: each small texel's four sub-pixels (its x2 enlargement: lightness
// from the learned filters, upscale/learned.glsl; a, b and, for plain comparisons, L too
// bilinear) are quantized each (watercolor/tones.glsl) and averaged. The tones' borders so
// fall within the texel where the full render's do, anti-aliased, and the abstraction, the
// costly part, is painted small. One 7x7 read serves the four sub-pixels.
#include "common/color.glsl"
#include "watercolor/tones.glsl"
#include "watercolor/palette.glsl"
#include "watercolor/glaze.glsl"
#include "watercolor/defocus.glsl"
#include "watercolor/beard.glsl"
#include "watercolor/ground.glsl"
out vec4 frag;
uniform sampler2D src;        // Lab, abstracted, small (linear filtering)
uniform sampler2D strands;    // Lab, abstracted and smoothed along the flow (strands.frag)
uniform sampler2D filters;    // the learned x2 filters
uniform sampler2D coarse;     // Lab, widely blurred
uniform sampler2D ground;     // the background alone widely blurred (ground.frag; a subject)
uniform sampler2D figure;     // .x the figure (figure_edges.frag)
uniform sampler2D shapes;     // Lab, the shapes' graded washes
uniform sampler2D wash;       // low-frequency noise; .w moves the tone thresholds
uniform sampler2D saliency;
uniform sampler2D defocus;    // how far out of focus the photo is (defocus.frag)
uniform sampler2D beard;      // where a face's beard is (beard.frag)
uniform int u_learned;        // 0: sub-pixels all bilinear (a plainly enlarged draft)
uniform float u_detail;
uniform float u_px;           // work px per reference px
uniform float u_scale;        // work px per source px
uniform float u_target_scale;
uniform vec2 u_resolution;
uniform vec2 u_origin;  // a tile's corner in the whole picture, source px (0 untiled)

float lr_value(ivec2 q) {
    return texelFetch(src, q, 0).x * 0.01;
}

#include "upscale/learned.glsl"

// The lightness gradient of `img` at texel `t` (L* per texel), central differences, edges
// clamped to `lim`.
vec2 gradient(sampler2D img, ivec2 t, ivec2 lim) {
    return vec2(texelFetch(img, min(t + ivec2(1, 0), lim), 0).x
                - texelFetch(img, max(t - ivec2(1, 0), ivec2(0)), 0).x,
                texelFetch(img, min(t + ivec2(0, 1), lim), 0).x
                - texelFetch(img, max(t - ivec2(0, 1), ivec2(0)), 0).x) * 0.5;
}

void main() {
    ivec2 t = ivec2(gl_FragCoord.xy);
    vec2 uv = gl_FragCoord.xy / u_resolution;
    // low-frequency inputs: the texel's centre serves its sub-pixels
    vec4 focus = texture(saliency, uv);
    float subject = u_detail * focus.x;
    float face = face_skin(focus);
    vec3 blurred = texture(coarse, uv).xyz;
    if (u_subject != 0) {  // beside the figure, the background's own (ground.glsl)
        blurred = ground_wash(blurred, texture(ground, uv), texture(figure, uv).x);
    }
    vec4 noise = texture(wash, uv);
    float wander = noise.w;
    ivec2 lim = textureSize(src, 0) - 1;
    vec2 g = gradient(src, t, lim);
    float along = along_flow(focus);
    float strand = 0.0;  // (figure_skin's)
    float own_change = length(g);
    if (along > 0.0) {  // hair and clothes: tones along the strands (as quantize.frag)
        strand = strand_like(texelFetch(src, t, 0).xyz, texelFetch(strands, t, 0).w);
        along *= strand;
        g = mix(g, gradient(strands, t, lim), along);
    }
    float sh = shape_weight(focus);
    float bearded = beard_here(beard, uv, focus);  // its own detail and colour (as quantize.frag)
    float own_k = mix(own_share(subject, sh, focus), 1.0, bearded);
    vec2 change = mix(laid_change(g, shapes_gradient(shapes, uv, sh), own_k, sh),
                      vec2(length(g)), along);
    float slope = defocused_slope(tone_slope(change.y, u_target_scale * u_px),
                                  defocused(defocus, uv, focus));
    vec4 big_l = vec4(0.0);
    if (u_learned != 0) {
        vec4 lo, hi;
        big_l = 100.0 * clamp(learned_x2_quad(filters, t, lim + 1, lo, hi), lo, hi);
    }
    // the shadow glaze's border: its field's change per texel, a sub-pixel's half of it
    float field_here = glaze_field(mix(blurred, texelFetch(src, t, 0).xyz, own_k), blurred,
                                   noise.y);
    float width = 0.5 * fwidth(field_here);
    // on a face's skin: its glaze where the form falls below the skin round it, its border
    // dried only where it faces the light, and its shine (as quantize.frag)
    vec2 head = u_subject != 0 ? head_round(gl_FragCoord.xy / (u_scale * u_target_scale)
                                            + u_origin) : vec2(0.0);
    float body = figure_skin(focus, texelFetch(src, t, 0).xyz, strand, own_change, head);
    float bare_skin = face * (1.0 - focus.y);
    float beside = 0.0;
    if (u_subject != 0) {  // (a specialized constant: uniform control flow)
        field_here = face_glaze_field(field_here, blurred, bare_skin);
        width = glaze_width(0.5 * fwidth(field_here), vec2(dFdx(field_here), dFdy(field_here)),
                            max(bare_skin, body));
        beside = wide_change(blurred.x, u_target_scale * u_px);
    }
    vec3 colour = u_glaze > 0.0 ? glaze_colour(blurred.yz, face) : vec3(1.0);
    float form = feature_form(face_form(u_wash_size * u_px, u_face_size * u_scale), focus);
    float skin = key_skin(texelFetch(src, t, 0).xyz, focus);
    // round a face (its hairline, light hair: figure_rest.glsl), as quantize.frag
    float round_k = round_face(focus) * head.x;
    // the face, and the person's skin beyond it in its own form (as quantize.frag)
    float flesh = max(face, body);
    form = mix(mix(form, 1.0, flesh - face), 1.0, bearded);
    vec3 sum = vec3(0.0);
    for (int k = 0; k < 4; k++) {
        vec2 sub = vec2(t) + 0.25 + 0.5 * vec2(k & 1, k >> 1);
        vec3 lab = texture(src, sub / vec2(lim + 1)).xyz;
        if (u_learned != 0) {
            lab.x = big_l[k];
        }
        // L* per sub-pixel (half a texel) of what is laid; the shapes' borders, sharp, fall
        // within the texel as in the full render
        vec3 laid = wide_wash(blurred, texture(shapes, sub / vec2(lim + 1)).xyz, sh);
        laid = mix(mix(laid, lab, own_k), texture(strands, sub / vec2(lim + 1)).xyz, along);
        float field = glaze_field(laid, blurred, noise.y);
        if (u_subject != 0) {
            field = face_glaze_field(field, blurred, bare_skin);
        }
        vec2 glaze = u_glaze > 0.0 ? glaze_cover(field, width) : vec2(0.0);
        float shine = 0.0;
        vec3 photo = lab;  // (before a glaze lifts it)
        if (bare_skin > 0.0) {  // a patch, not a glint: its neighbours a full texel away rise
            vec2 size = vec2(lim + 1);
            float patch_l = min(min(lab.x, min(texture(src, (sub + vec2(0.5, 0.0)) / size).x,
                                               texture(src, (sub - vec2(0.5, 0.0)) / size).x)),
                                min(texture(src, (sub + vec2(0.0, 0.5)) / size).x,
                                    texture(src, (sub - vec2(0.0, 0.5)) / size).x));
            shine = bare_skin * face_shine(vec3(patch_l, lab.yz), blurred, beside);
        }
        vec3 under = blurred;
        if (glaze.x > 0.0) {  // the first layer, lighter beneath the glaze (as quantize.frag)
            vec3 through = glaze_through(colour, glaze.x, face);
            laid.x = glaze_lifted(laid, through);
            if (face > 0.0) {
                lab.x = glaze_lifted(lab, through);
                under.x = glaze_lifted(under, through);
            }
        }
        vec3 tone = wash_tone(laid, slope, subject, wander, 0.5 * change.x, skin);
        float graded = max(along * hair_graded(head, laid), bearded);
        if (graded > 0.0) {  // hair: a few graded washes along its strands (as quantize.frag)
            tone = mix(tone, hair_tone(laid, subject, wander, 0.5 * change.x, skin), graded);
        }
        if (flesh > 0.0) {
            tone = mix(tone, face_tone(lab, under, wander, 0.5 * length(g), form, skin),
                       flesh);
        }
        if (glaze.y > 0.0) {
            tone = glazed(tone, glaze_through(colour, glaze.y, face));
        }
        tone = beard_colour(own_colour(tone, photo, blurred, round_k), photo, bearded);
        if (shine > 0.0) {  // a face's shine, as light and white as the photo's
            vec2 ab = length(photo.yz) < length(tone.yz) ? photo.yz : tone.yz;
            tone = mix(tone, vec3(max(tone.x, photo.x), ab), shine);
        }
        sum += palette_tone(tone, blurred.x, face);
    }
    frag = vec4(0.25 * sum, 1.0);
}
