#version 330 core
// Where washes meet (half the work size): wet-in-wet bleeding, a feathered blend into the
// widely blurred washes on wet patches of the paper (more of them away from the subject),
// then gaps (slivers of bare paper) and overlaps (both washes layered, darker) along the
// borders that bleeding left crisp. .a keeps the wetness: wet borders pool no pigment.
// A face (the focus map's .z), and the figure next to it (a beard, hair: its .w within
// FACE_NEAR of the face), is painted nearly dry however wet the sheet (trial F4: the wide
// bleed's blur laid the hair's and background's grey over the skin, dulled it, melted its
// edge into the background and dissolved a beard): there it takes at most FACE_WET of the
// bleeding, scattered at most FACE_SCATTER and from the wet-edge blur instead of the wide one
// as the bleeding distance grows past FACE_SCATTER (the default look's: unchanged there).
// tiles: reach ceil(max(2.0, 0.5 * u_bleed_width) * u_px * u_target_scale) + 1
#include "common/noise.glsl"
#include "common/canvas.glsl"
#include "common/color.glsl"
#include "watercolor/defocus.glsl"
out vec4 frag;
uniform sampler2D smoothed;  // washes, sRGB values
uniform sampler2D blurred;   // washes blurred over the wet-edge width
uniform sampler2D bleed;     // washes blurred over the bleeding distance
uniform sampler2D wash;      // low-frequency noise: turbulence .x
uniform sampler2D saliency;  // 1 = the subject
uniform sampler2D defocus;   // how far out of focus the photo is (defocus.frag)
uniform sampler2D canvas0;   // advected canvas layers (temporal coherence)
uniform sampler2D canvas1;
uniform int u_temporal;
uniform int u_history;
uniform int u_seed;
uniform float u_bleeding;
uniform float u_bleed_width;
uniform float u_gaps;
uniform float u_overlaps;
uniform float u_detail;
uniform float u_scale;         // work px per source px
uniform float u_target_scale;  // of the work size
uniform float u_px;            // work px per reference px
uniform float u_face_size;     // the faces' median size, source px (0: none)
uniform vec2 u_resolution;
uniform vec2 u_origin;  // a tile's corner in the whole picture, source px (0 untiled)
#include "common/canvas_noise.glsl"
#include "watercolor/figure_rest.glsl"

const float FACE_WET = 0.2;       // the most wetness a face takes (about the default look's)
const float FACE_SCATTER = 12.0;  // reference px: a face's bleeding distance at most
const float FACE_NEAR = 0.3;      // of the face's size: the figure this near it is kept too

// How much this is a face or the figure right next to it (a beard, hair, 0 without a
// subject): the face map's soft oval, and the figure where the face is within FACE_NEAR
// (8 taps of the face map round here).
float face_kept(vec4 focus, vec2 uv, vec2 src_size, float ref) {
    float face = smoothstep(0.0, 0.5, focus.z);
    if (u_face_size <= 0.0 || focus.w <= 0.0) {
        return face;
    }
    // at most the bleeding's own scatter: the tile reach (a wider one widened every tile's
    // overlap many times over)
    vec2 r = min(FACE_NEAR * u_face_size, max(2.0, 0.5 * u_bleed_width) * ref) / src_size;
    float near = 0.0;
    for (int i = 0; i < 8; i++) {
        float a = 0.7853982 * float(i);
        near = max(near, texture(saliency, uv + r * vec2(cos(a), sin(a))).z);
    }
    return max(face, smoothstep(0.0, 0.5, near) * focus.w);
}

// The blurred washes `d` texels from this one (the same size as this target: fetched, not
// filtered; borders replicated).
vec3 blurred_at(ivec2 d) {
    ivec2 hi = textureSize(blurred, 0) - 1;
    return texelFetch(blurred, clamp(ivec2(gl_FragCoord.xy) + d, ivec2(0), hi), 0).rgb;
}

void main() {
    vec2 uv = gl_FragCoord.xy / u_resolution;
    vec2 p = gl_FragCoord.xy / (u_scale * u_target_scale) + u_origin;  // source px
    float ref = u_px / u_scale;                             // source px per reference px
    vec2 src_size = u_resolution / (u_scale * u_target_scale);
    vec3 c = texture(smoothed, uv).rgb;
    vec4 focus = texture(saliency, uv);
    float subject = u_detail * focus.x;

    float wetness = u_bleeding > 0.0
        ? u_bleeding * smoothstep(0.42, 0.58, texture(wash, uv).x) * (1.0 - 0.8 * subject)
        : 0.0;
    if (wetness > 0.0) {
        float kept = face_kept(focus, uv, src_size, ref);
        wetness = mix(wetness, min(wetness, FACE_WET), kept);
        float reach = mix(u_bleed_width, min(u_bleed_width, FACE_SCATTER), kept);
        vec2 feather = vec2(canvas_noise(p, uv, 6.0 * ref, 601),
                            canvas_noise(p, uv, 6.0 * ref, 602)) - 0.5;
        vec2 at = uv + feather * reach * ref / src_size;
        vec3 wide = texture(bleed, at).rgb;
        // past the default's distance a face takes the wet-edge blur: the wide one is grey
        float near = kept * smoothstep(FACE_SCATTER, 2.0 * FACE_SCATTER, u_bleed_width);
        c = mix(c, near > 0.0 ? mix(wide, texture(blurred, at).rgb, near) : wide, wetness);
    }

    if (u_gaps > 0.0 || u_overlaps > 0.0) {
        // Across the border (the blurred washes' gradient), sample both sides.
        float gx = luma(blurred_at(ivec2(1, 0))) - luma(blurred_at(ivec2(-1, 0)));
        float gy = luma(blurred_at(ivec2(0, 1))) - luma(blurred_at(ivec2(0, -1)));
        vec2 n = normalize(vec2(gx, gy) + 1e-7);
        vec2 r = 2.0 * ref * n / src_size;
        vec3 c1 = texture(smoothed, uv + r).rgb;
        vec3 c2 = texture(smoothed, uv - r).rgb;
        // Only along long borders between clearly different washes: small islands hardly
        // survive the blur.
        float border = smoothstep(0.12, 0.25, length(c1 - c2))
                     * smoothstep(0.02, 0.06, length(vec2(gx, gy))) * (1.0 - wetness)
                     * (1.0 - defocused(defocus, uv, focus));  // out of focus: wet, merged
        float sel = canvas_noise(p, uv, 24.0 * ref, 501);
        // no paper between the hair and the skin in the band round a face (its hairline, a
        // temple: figure_rest.glsl's head_round): a white sliver along the hairline read as a
        // pale halo between hair and forehead (trial F7, finding 6), where a painter lets
        // the two meet wet in wet
        vec2 head = head_round(p);
        float gap = u_gaps * border * (1.0 - smoothstep(0.25, 0.35, sel))
                  * (1.0 - head.x * head.y);
        float over = u_overlaps * border * smoothstep(0.65, 0.75, sel);
        c = mix(c, c1 * c2, over);
        c = mix(c, vec3(1.0), gap);
    }
    frag = vec4(c, wetness);
}
