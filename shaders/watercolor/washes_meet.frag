#version 330 core
// Where washes meet (half the work size): wet-in-wet bleeding, a feathered blend into the
// widely blurred washes on wet patches of the paper (more of them away from the subject),
// then gaps (slivers of bare paper) and overlaps (both washes layered, darker) along the
// borders that bleeding left crisp. .a keeps the wetness: wet borders pool no pigment.
// tiles: reach ceil(max(2.0, 0.5 * u_bleed_width) * u_px * u_target_scale) + 1
#include "common/noise.glsl"
#include "common/canvas.glsl"
#include "common/color.glsl"
out vec4 frag;
uniform sampler2D smoothed;  // washes, sRGB values
uniform sampler2D blurred;   // washes blurred over the wet-edge width
uniform sampler2D bleed;     // washes blurred over the bleeding distance
uniform sampler2D wash;      // low-frequency noise: turbulence .x
uniform sampler2D saliency;  // 1 = the subject
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
uniform vec2 u_resolution;
uniform vec2 u_origin;  // a tile's corner in the whole picture, source px (0 untiled)
#include "common/canvas_noise.glsl"

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
    float subject = u_detail * texture(saliency, uv).x;

    float wetness = u_bleeding > 0.0
        ? u_bleeding * smoothstep(0.42, 0.58, texture(wash, uv).x) * (1.0 - 0.8 * subject)
        : 0.0;
    if (wetness > 0.0) {
        vec2 feather = vec2(canvas_noise(p, uv, 6.0 * ref, 601),
                            canvas_noise(p, uv, 6.0 * ref, 602)) - 0.5;
        c = mix(c, texture(bleed, uv + feather * u_bleed_width * ref / src_size).rgb, wetness);
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
                     * smoothstep(0.02, 0.06, length(vec2(gx, gy))) * (1.0 - wetness);
        float sel = canvas_noise(p, uv, 24.0 * ref, 501);
        float gap = u_gaps * border * (1.0 - smoothstep(0.25, 0.35, sel));
        float over = u_overlaps * border * smoothstep(0.65, 0.75, sel);
        c = mix(c, c1 * c2, over);
        c = mix(c, vec3(1.0), gap);
    }
    frag = vec4(c, wetness);
}
