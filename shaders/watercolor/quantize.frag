#version 330 core
// Wash tones (watercolor/tones.glsl) of the abstracted Lab image, per pixel. Away from the
// subject (the focus) the tones follow the shapes' graded washes (watercolor/shape_wash.glsl)
// or a widely blurred copy, so the background dissolves into large washes; a found figure's
// hair and clothes follow its strands (the abstraction smoothed along the flow).
// tiles: reach 1
#include "common/color.glsl"
#include "watercolor/tones.glsl"
#include "watercolor/palette.glsl"
#include "watercolor/glaze.glsl"
#include "watercolor/defocus.glsl"
#include "watercolor/beard.glsl"
#include "watercolor/ground.glsl"
out vec4 frag;
uniform sampler2D src;        // Lab, abstracted
uniform sampler2D strands;    // Lab, abstracted and smoothed along the flow (strands.frag)
uniform sampler2D coarse;     // Lab, widely blurred (smaller target)
uniform sampler2D ground;     // the background alone widely blurred (ground.frag; a subject)
uniform sampler2D figure;     // .x the figure (figure_edges.frag)
uniform sampler2D shapes;     // Lab, the shapes' graded washes (watercolor/shape_paint.frag)
uniform sampler2D wash;       // low-frequency noise; .w moves the tone thresholds
uniform sampler2D saliency;   // the focus map: .x focus, .y the features, .z the face
uniform sampler2D defocus;    // how far out of focus the photo is (defocus.frag)
uniform sampler2D beard;      // where a face's beard is (beard.frag)
uniform float u_detail;
uniform float u_px;             // work px per reference px
uniform float u_scale;          // work px per source px
uniform float u_target_scale;
uniform vec2 u_resolution;
uniform vec2 u_origin;  // a tile's corner in the whole picture, source px (0 untiled)

float lum(sampler2D img, ivec2 p) {
    return texelFetch(img, clamp(p, ivec2(0), ivec2(u_resolution) - 1), 0).x;
}

// The lightness gradient of `img` (L* per texel), central differences.
vec2 gradient(sampler2D img, ivec2 p) {
    return vec2(lum(img, p + ivec2(1, 0)) - lum(img, p - ivec2(1, 0)),
                lum(img, p + ivec2(0, 1)) - lum(img, p - ivec2(0, 1))) * 0.5;
}

void main() {
    ivec2 ip = ivec2(gl_FragCoord.xy);
    vec4 lab = texelFetch(src, ip, 0);
    vec2 uv = gl_FragCoord.xy / u_resolution;
    vec4 focus = texture(saliency, uv);
    float subject = u_detail * focus.x;
    vec3 blurred = texture(coarse, uv).xyz;
    if (u_subject != 0) {  // beside the figure, the background's own (ground.glsl)
        blurred = ground_wash(blurred, texture(ground, uv), texture(figure, uv).x);
    }
    float sh = shape_weight(focus);
    vec3 wide = wide_wash(blurred, texture(shapes, uv).xyz, sh);
    vec3 own = lab.xyz;
    // a beard keeps its own detail and colour (not the figure's shapes past the face: the
    // collar's and the jacket's colours blurred into it)
    float bearded = beard_here(beard, uv, focus);
    float own_k = mix(own_share(subject, sh, focus), 1.0, bearded);
    lab.xyz = mix(wide, lab.xyz, own_k);
    vec2 g = gradient(src, ip);
    float along = along_flow(focus);
    float strand = 0.0;  // (figure_skin's)
    float own_change = length(g);
    if (along > 0.0) {  // hair and clothes: tones along the strands, steps as crisp as theirs
        vec4 st = texelFetch(strands, ip, 0);
        strand = strand_like(own, st.w);
        along *= strand;
        lab.xyz = mix(lab.xyz, st.xyz, along);
        g = mix(g, gradient(strands, ip), along);
    }
    vec2 change = mix(laid_change(g, shapes_gradient(shapes, uv, sh), own_k, sh),
                      vec2(length(g)), along);
    float slope = defocused_slope(tone_slope(change.y, u_target_scale * u_px),
                                  defocused(defocus, uv, focus));
    vec4 noise = texture(wash, uv);
    float wander = noise.w;
    float face = face_skin(focus);
    float skin = key_skin(own, focus);  // the key lifts a person's skin less
    // the shadow glaze: its field's border one texel wide (fwidth: uniform control flow),
    // on a person's skin (the face's, and beyond it: figure_skin) only where it faces the
    // light (dried everywhere, a forearm's shadow was a hard dark band down it)
    vec2 head = u_subject != 0 ? head_round(gl_FragCoord.xy / (u_scale * u_target_scale)
                                            + u_origin) : vec2(0.0);
    float body = figure_skin(focus, own, strand, own_change, head);
    float bare_skin = face * (1.0 - focus.y);
    float field = glaze_field(lab.xyz, blurred, noise.y);
    float width = fwidth(field);
    float beside = 0.0;
    if (u_subject != 0) {  // (a specialized constant: uniform control flow)
        field = face_glaze_field(field, blurred, bare_skin);
        width = glaze_width(fwidth(field), vec2(dFdx(field), dFdy(field)),
                            max(bare_skin, body));
        beside = wide_change(blurred.x, u_target_scale * u_px);
    }
    // a shine is a patch, not a glint: its four neighbours one texel away rise too (a 2 px
    // glint at a mouth's corner or on a frame is no shine: it read as a white fleck)
    float patch_l = min(min(own.x, min(lum(src, ip + ivec2(1, 0)), lum(src, ip - ivec2(1, 0)))),
                        min(lum(src, ip + ivec2(0, 1)), lum(src, ip - ivec2(0, 1))));
    float shine = bare_skin > 0.0
        ? bare_skin * face_shine(vec3(patch_l, own.yz), blurred, beside) : 0.0;
    float shine_l = own.x;  // (before a glaze lifts it)
    vec2 shine_ab = own.yz;
    vec2 glaze = u_glaze > 0.0 ? glaze_cover(field, width) : vec2(0.0);
    // the glaze's own colour: the wide wash's hue
    vec3 colour = glaze.x > 0.0 ? glaze_colour(blurred.yz, face) : vec3(1.0);
    float around = blurred.x;  // the wide wash round it, for the palette (not lifted)
    if (glaze.x > 0.0) {  // the first layer, lighter beneath it
        vec3 under = glaze_through(colour, glaze.x, face);
        lab.x = glaze_lifted(lab.xyz, under);
        if (face > 0.0) {
            own.x = glaze_lifted(own, under);
            blurred.x = glaze_lifted(blurred, under);
        }
    }
    vec3 tone = wash_tone(lab.xyz, slope, subject, wander, change.x, skin);
    // round a face (its hairline, light hair: figure_rest.glsl): a few graded washes along
    // the strands; clothes keep the wash's crisp tones
    float graded = max(along * hair_graded(head, lab.xyz), bearded);  // and a beard
    if (graded > 0.0) {
        tone = mix(tone, hair_tone(lab.xyz, subject, wander, change.x, skin), graded);
    }
    // on a face (the focus is 1 only there), its features too: flesh and glazes; and the
    // person's skin beyond it: up to the hairline, the hands (figure_skin)
    float flesh = max(face, body);
    if (flesh > 0.0) {
        float form = feature_form(face_form(u_wash_size * u_px, u_face_size * u_scale), focus);
        form = mix(form, 1.0, flesh - face);  // the skin beyond: its own form (figure_skin)
        form = mix(form, 1.0, bearded);  // a beard its own tone, not the flesh round it
        tone = mix(tone, face_tone(own, blurred, wander, length(g), form, skin), flesh);
    }
    if (glaze.y > 0.0) {
        tone = glazed(tone, glaze_through(colour, glaze.y, face));
    }
    tone = beard_colour(own_colour(tone, own, blurred, round_face(focus) * head.x), own,
                        bearded);
    if (shine > 0.0) {  // a face's shine: the flesh wash left it, as light and white as
        // the photo's (no whiter: a paper-white dot on dark skin read as a fleck)
        vec2 ab = length(shine_ab) < length(tone.yz) ? shine_ab : tone.yz;
        tone = mix(tone, vec3(max(tone.x, shine_l), ab), shine);
    }
    frag = vec4(palette_tone(tone, around, face), 1.0);
}
