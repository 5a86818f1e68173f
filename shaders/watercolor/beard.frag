#version 330 core
// The beard map (a quarter of the work size, 0..1): where a face's stubble or beard is, laid
// as hair (watercolor/beard.glsl), not as smooth skin nor the figure's clothes. Below the
// nose and down past the chin of a face big enough to show its hairs (u_heads), a texel
// whose photo has hair's fine texture (beard_detail.frag .x), in a hair's colour (.y), among
// others that have it too: a beard is an area of it; a freckle, a mole, a crease is a
// texel or two among smooth skin. The detail is read whole (a big still's tiles: its face's
// grain and jaw lie anywhere), by the whole picture's position.
// tiles: reach 0
#include "watercolor/figure_rest.glsl"
out vec4 frag;
uniform sampler2D own;     // beard_detail.frag (whole): .x the texture no edge explains,
                           // .y hair colour
uniform float u_scale;     // work px per source px
uniform float u_target_scale;  // of the work size
uniform vec2 u_origin;  // a tile's corner in the whole picture, source px (0 untiled)
uniform vec2 u_picture;    // the whole picture's source size

const vec2 HAIR_TEXTURE = vec2(0.3, 1.1);  // L* over the face's own grain: a smooth cheek's
                                           // (up to 0.3, its pores up to 0.6) .. stubble's (1-3)
const int AROUND = 6;          // texels (of 4 work px): the area judged round a texel
const float AROUND_SIGMA = 3.0;  // texels
const float HERE_SIGMA = 1.5;    // texels: the texel's own (its 4x4 half px are few: noisy)
const vec2 HERE = vec2(0.0, 0.5);  // of the texels round it hairy: the beard's hairs in full
const vec2 AREA = vec2(0.2, 0.45);  // of the area round it hairy: a spot .. a beard
// The beard's place, in its face box's half sides from its centre (the box spans the brows
// to the chin): from under the nose (the cheeks' beard and a moustache) down past the chin
// (the beard under the jaw, which narrows: the collar, a shoulder beside it are clothes)
const vec2 BEARD_TOP = vec2(0.0, 0.3);
const vec2 BEARD_BOTTOM = vec2(1.3, 1.7);
const float BEARD_SIDE = 1.0;     // half width at the cheeks ...
const float JAW_NARROWS = 0.4;    // ... less this per half side below 0.8
// A face under 140 work px shows no hairs (its features' edges and a print's grain are its
// fine texture): its beard is a tone the washes keep
const vec2 BEARD_FACE = vec2(140.0, 190.0);
const vec2 OVAL = vec2(0.95, 1.1);  // the face's oval's half axes, in its box's half sides

// The face's own grain (a print's halftone, a scan's, a noisy sensor's: hairlike over the
// whole face): the texture (beard_detail.frag .x) on its skin where no beard grows (under the
// eyes, beside the nose, the forehead, the temples), the mean of the least three of its
// points (hair, a frame's rim, a brow may cross the others), each a mean of 4x4 texels round
// it. A beard's must exceed GRAIN times it (a print's grain is stronger in the shadows: a
// halftone's dots under a child's chin were drawn as stubble). `h`: its u_heads entry.
const float GRAIN = 1.5;

// How hairy a texel is (`t`: beard_detail.frag's) over the face's `grain` (face_grain's).
float hairy(vec2 t, float grain) {
    return smoothstep(HAIR_TEXTURE.x, HAIR_TEXTURE.y, t.x - GRAIN * grain) * t.y;
}

const int GRAIN_AT = 9;
const vec2 GRAIN_POINTS[GRAIN_AT] = vec2[GRAIN_AT](
    vec2(-0.45, -0.15), vec2(0.45, -0.15), vec2(-0.6, -0.3), vec2(0.6, -0.3),
    vec2(0.0, -1.3), vec2(-0.4, -1.3), vec2(0.4, -1.3), vec2(-0.8, -0.7), vec2(0.8, -0.7));
float face_grain(vec4 h) {
    vec2 texel = 1.0 / vec2(textureSize(own, 0));
    vec3 least = vec3(1e4);  // the least three, in order
    for (int i = 0; i < GRAIN_AT; ++i) {
        vec2 at = (h.xy + GRAIN_POINTS[i] * h.zw) / u_picture / texel;  // its texel
        float sum = 0.0;
        for (int k = 0; k < 4; ++k) {  // 4 bilinear taps: 4x4 texels
            vec2 o = vec2(float(k & 1), float(k >> 1)) * 2.0 - 1.0;
            sum += max(texture(own, (at + o) * texel).x, 0.0);
        }
        float t = 0.25 * sum;
        least = t < least.x ? vec3(t, least.xy) : t < least.y ? vec3(least.x, t, least.y)
                                                  : vec3(least.xy, min(least.z, t));
    }
    return (least.x + least.y + least.z) / 3.0;
}

// How much a face has a beard on its own skin, 0..1: the share of hairy texels (`grain`: its
// face_grain) at points on its jaw and chin, each a mean of 4x4 texels round it. Past its
// oval (under the jaw) a beard is laid only on a bearded face's: there the figure's hair
// (a woman's strands down the neck), a sleeve's knit, a fur collar are as hairy.
const int JAW_AT = 9;
const vec2 JAW_POINTS[JAW_AT] = vec2[JAW_AT](
    vec2(0.0, 0.8), vec2(-0.3, 0.75), vec2(0.3, 0.75), vec2(-0.55, 0.6), vec2(0.55, 0.6),
    vec2(-0.7, 0.35), vec2(0.7, 0.35), vec2(-0.75, 0.1), vec2(0.75, 0.1));
const vec2 BEARDED = vec2(0.08, 0.25);  // of the points hairy: a clean-shaven face .. a beard
float bearded_face(vec4 h, float grain) {
    vec2 texel = 1.0 / vec2(textureSize(own, 0));
    float sum = 0.0;
    for (int i = 0; i < JAW_AT; ++i) {
        vec2 at = (h.xy + JAW_POINTS[i] * h.zw) / u_picture / texel;
        for (int k = 0; k < 4; ++k) {
            vec2 o = vec2(float(k & 1), float(k >> 1)) * 2.0 - 1.0;
            sum += hairy(texture(own, (at + o) * texel).xy, grain);
        }
    }
    return smoothstep(BEARDED.x, BEARDED.y, sum / float(4 * JAW_AT));
}

// How much `at` (source px of the whole picture) lies where a face's beard grows (.x), and
// that face (.y, its index in u_heads), and how much inside its oval (.z).
vec3 beard_place(vec2 at) {
    vec3 k = vec3(0.0);
    for (int i = 0; i < HEADS; i++) {
        vec4 h = u_heads[i];
        if (h.z <= 0.0) {
            break;
        }
        vec2 d = (at - h.xy) / h.zw;
        float half_w = BEARD_SIDE - JAW_NARROWS * max(d.y - 0.8, 0.0);
        float place = smoothstep(BEARD_TOP.x, BEARD_TOP.y, d.y)
                      * (1.0 - smoothstep(BEARD_BOTTOM.x, BEARD_BOTTOM.y, d.y))
                      * (1.0 - smoothstep(half_w - 0.15, half_w + 0.05, abs(d.x)))
                      * smoothstep(BEARD_FACE.x, BEARD_FACE.y, 2.0 * h.z * u_scale);
        if (place > k.x) {  // the oval: about the face map's (subject_map.py)
            float r = length(vec2(d.x / OVAL.x, (d.y + 0.1) / OVAL.y));
            k = vec3(place, float(i), 1.0 - smoothstep(0.85, 1.05, r));
        }
    }
    return k;
}

void main() {
    vec2 at = gl_FragCoord.xy / (u_scale * u_target_scale) + u_origin;  // source px, whole
    vec3 place = beard_place(at);
    if (place.x <= 0.0) {
        frag = vec4(0.0, 0.0, 0.0, 1.0);
        return;
    }
    vec4 head = u_heads[int(place.y)];
    float grain = face_grain(head);
    float whose = max(place.z, bearded_face(head, grain));  // its oval's, or a bearded face's
    if (whose <= 0.0) {
        frag = vec4(0.0, 0.0, 0.0, 1.0);
        return;
    }
    ivec2 hi = textureSize(own, 0) - 1;
    ivec2 c = ivec2(at / u_picture * vec2(hi + 1));  // this texel in the whole map
    vec2 sum = vec2(0.0), norm = vec2(0.0);
    vec2 spread = 2.0 * vec2(HERE_SIGMA * HERE_SIGMA, AROUND_SIGMA * AROUND_SIGMA);
    for (int j = -AROUND; j <= AROUND; ++j) {
        for (int i = -AROUND; i <= AROUND; ++i) {
            vec2 w = exp(-float(i * i + j * j) / spread);
            vec2 t = texelFetch(own, clamp(c + ivec2(i, j), ivec2(0), hi), 0).xy;
            sum += w * hairy(t, grain);
            norm += w;
        }
    }
    vec2 k = sum / norm;  // here, and the area round it
    float beard = smoothstep(HERE.x, HERE.y, k.x) * smoothstep(AREA.x, AREA.y, k.y);
    frag = vec4(place.x * whose * beard, 0.0, 0.0, 1.0);
}
