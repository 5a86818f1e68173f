#version 330 core
// Wash tones (watercolor/tones.glsl) of the abstracted Lab image, per pixel. Away from the
// subject (the focus) the tones follow the shapes' graded washes (watercolor/shape_wash.glsl)
// or a widely blurred copy, so the background dissolves into large washes.
// tiles: reach 1
#include "watercolor/tones.glsl"
#include "watercolor/palette.glsl"
out vec4 frag;
uniform sampler2D src;        // Lab, abstracted
uniform sampler2D coarse;     // Lab, widely blurred (smaller target)
uniform sampler2D shapes;     // Lab, the shapes' graded washes (watercolor/shape_paint.frag)
uniform sampler2D wash;       // low-frequency noise; .w moves the tone thresholds
uniform sampler2D saliency;   // the focus map: .x focus, .y the features, .z the face
uniform float u_detail;
uniform float u_px;             // work px per reference px
uniform float u_target_scale;
uniform vec2 u_resolution;

float lum(ivec2 p) {
    return texelFetch(src, clamp(p, ivec2(0), ivec2(u_resolution) - 1), 0).x;
}

void main() {
    ivec2 ip = ivec2(gl_FragCoord.xy);
    vec4 lab = texelFetch(src, ip, 0);
    vec2 uv = gl_FragCoord.xy / u_resolution;
    vec4 focus = texture(saliency, uv);
    float subject = u_detail * focus.x;
    vec3 blurred = texture(coarse, uv).xyz;
    float sh = shape_weight(focus);
    vec3 wide = wide_wash(blurred, texture(shapes, uv).xyz, sh);
    vec3 own = lab.xyz;
    float own_k = own_share(subject, sh, focus);
    lab.xyz = mix(wide, lab.xyz, own_k);
    vec2 g = vec2(lum(ip + ivec2(1, 0)) - lum(ip - ivec2(1, 0)),
                  lum(ip + ivec2(0, 1)) - lum(ip - ivec2(0, 1))) * 0.5;
    vec2 change = laid_change(g, shapes_gradient(shapes, uv, sh), own_k, sh);
    float slope = tone_slope(change.y, u_target_scale * u_px);
    float wander = texture(wash, uv).w;
    vec3 tone = wash_tone(lab.xyz, slope, subject, wander, change.x);
    // on a face (the focus is 1 only there), less its features: flesh and glazes
    float face = face_skin(focus);
    if (face > 0.0) {
        tone = mix(tone, face_tone(own, blurred, slope, wander, length(g)), face);
    }
    frag = vec4(palette_tone(tone, blurred.x, face), 1.0);
}
