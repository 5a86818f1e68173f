#version 330 core
// A person's jewellery, found (the composite lays it back, jewels.glsl): earrings, studs,
// pearls and chains are a few px of light that the half-size washes smooth away (trial F10,
// finding 4: a pearl earring laid as the ear's skin, a pearl necklace as a faint beige band,
// a chain gone), where a painter reserves the paper for each pearl's or stud's light and puts
// a dark touch beside it. Found only where jewellery is worn round a face (its heads,
// u_heads): beside it at the ears and below it on the neck and chest, on the figure, never in
// the face's oval nor its features (a skin's sheen, the teeth, a catchlight have their own
// treatment); as a light that is small and compact at the face's scale: lighter than all but
// two of eight samples round it (a point, or a line of them: a chain, a hoop, a string of
// pearls) at a jewel's size and at twice it (a white collar, a shirt, a bright wall are larger),
// light, and lighter than the washes laid here (they lost it). Each pixel is judged by the
// lightest place within a jewel's size of it (the jewel's whole body, its shaded side and the
// dark beside it are laid with its light, as the photo has them). .r the strength (0..1).
// tiles: reach ceil(3.7 * 8.0 * max(1.0, u_px)) + 2
// tiles: here washes
out vec4 frag;
uniform sampler2D photo;   // the picture, work size, sRGB values
uniform sampler2D washes;  // the painted washes, half work size
uniform sampler2D focus;   // .y the features, .z the face, .w the figure (focus.frag)
uniform float u_px;        // work px per reference px
uniform vec2 u_resolution; // this map's size (half the work size: the composite's linear
                           // lookup spreads it a pixel, a llvmpipe runs a quarter of it)
uniform float u_scale;     // work px per source px
uniform vec2 u_origin;     // a tile's corner in the whole picture, source px (0 untiled)

#include "common/color.glsl"
#include "watercolor/face_lift.glsl"

const float SIZE = 0.08;   // of a face box's half height: a jewel's radius (a pearl, a stud)
const vec2 SIZE_PX = vec2(1.5, 8.0);  // the radius at least (work px), at most (reference px)
const float REACH = 0.7;   // of the radius: how far a pixel looks for the jewel's light
// of a face box's half sides from its centre (the box spans the brows to the chin): the ears
// beside it (.x across from .. to, .y down from .. to) and the neck and chest below it (.z
// across to, .w down from .. DOWN)
const vec4 EARS = vec4(0.55, 1.45, -0.3, 1.4);
const vec2 NECK = vec2(1.5, 0.8);
const float DOWN = 4.5;
const float ZONE_SOFT = 0.15;  // half sides over which the zones fade
const vec2 LIGHT = vec2(0.5, 0.65);     // the photo's luma from which a jewel's light is one
const vec2 STANDS_OUT = vec2(0.08, 0.16);  // of luma: over its surround, and over the washes
const vec2 NOT_FACE = vec2(0.85, 1.0);  // of the face map: jewels .. none (its oval)
const vec2 NOT_FEATURES = vec2(0.05, 0.3);  // of the features' map alike
const vec2 ON_FIGURE = vec2(0.05, 0.3);  // of the figure map: none .. jewels
const vec2 EVEN = vec2(0.5, 1.0);  // the surround's unevenness over the light's contrast
const vec2 CROWD = vec2(1.5, 3.5);  // of 8 samples across as light: alone .. crowded (hair)

vec2 work;  // the work size (the photo's)

float luma_at(vec2 q) {
    return luma(texture(photo, q / work).rgb);
}

// Where round the faces jewellery is worn at `at` (source px of the whole picture), 0..1
// (.x), the face box's half height there (.y, source px), and how much it is the neck and
// chest rather than the ears (.z).
vec3 worn(vec2 at) {
    vec3 best = vec3(0.0);
    for (int i = 0; i < HEADS; i++) {
        vec4 h = u_heads[i];
        if (h.z <= 0.0) {
            break;
        }
        vec2 d = (at - h.xy) / h.zw;
        float ax = abs(d.x);
        float ears = smoothstep(EARS.x - ZONE_SOFT, EARS.x + ZONE_SOFT, ax)
                     * (1.0 - smoothstep(EARS.y - ZONE_SOFT, EARS.y + ZONE_SOFT, ax))
                     * smoothstep(EARS.z - ZONE_SOFT, EARS.z + ZONE_SOFT, d.y)
                     * (1.0 - smoothstep(EARS.w - ZONE_SOFT, EARS.w + ZONE_SOFT, d.y));
        float neck = (1.0 - smoothstep(NECK.x - ZONE_SOFT, NECK.x + ZONE_SOFT, ax))
                     * smoothstep(NECK.y - ZONE_SOFT, NECK.y + ZONE_SOFT, d.y)
                     * (1.0 - smoothstep(DOWN - 2.0 * ZONE_SOFT, DOWN + 2.0 * ZONE_SOFT, d.y));
        float z = max(ears, neck);
        if (z > best.x) {
            best = vec3(z, h.w, neck / max(ears + neck, 1e-3));
        }
    }
    return best;
}

// How much lighter `l` at `q` is than all but the two lightest of eight samples `r` round it
// (.x), the direction to the lightest (.yz: along a line, a chain's or a hoop's), and how
// much lighter the third lightest is than the darkest (.w: how uneven the surround is).
vec4 lighter_than_round(vec2 q, float l, float r) {
    float a = 0.0, b = 0.0, c = 0.0;  // the three lightest, a >= b >= c
    float darkest = 1.0;
    vec2 along = vec2(1.0, 0.0);
    for (int k = 0; k < 8; ++k) {
        vec2 d = vec2(cos(0.7853982 * float(k)), sin(0.7853982 * float(k)));
        float s = luma_at(q + r * d);
        darkest = min(darkest, s);
        if (s > a) {
            c = b; b = a; a = s;
            along = d;
        } else if (s > b) {
            c = b; b = s;
        } else if (s > c) {
            c = s;
        }
    }
    return vec4(l - c, along, c - darkest);
}

// How crowded a light `l` at `q` is by others as light (within half its contrast `stands`)
// across `n`, 1.5 to 3 radii `r` off each way: 0 alone (a chain on a chest, an earring
// against the hair) .. 1 (lit strands of hair side by side, a fabric's sheen).
float crowded(vec2 q, float l, vec2 n, float r, float stands) {
    float count = 0.0;
    for (int k = 0; k < 4; ++k) {
        float o = r * (1.5 + 0.5 * float(k));
        count += step(l - 0.5 * stands, luma_at(q + o * n))
                 + step(l - 0.5 * stands, luma_at(q - o * n));
    }
    return smoothstep(CROWD.x, CROWD.y, count);
}

void main() {
    work = vec2(textureSize(photo, 0));
    vec2 p = gl_FragCoord.xy * work / u_resolution;  // work px
    vec3 zone = worn(p / u_scale + u_origin);
    vec4 f = texture(focus, p / work);
    float where = zone.x * (1.0 - smoothstep(NOT_FACE.x, NOT_FACE.y, f.z))
                  * (1.0 - smoothstep(NOT_FEATURES.x, NOT_FEATURES.y, f.y))
                  * smoothstep(ON_FIGURE.x, ON_FIGURE.y, f.w);
    if (where <= 0.0) {
        frag = vec4(0.0);
        return;
    }
    float r = clamp(SIZE * zone.y * u_scale, SIZE_PX.x, SIZE_PX.y * max(1.0, u_px));
    // the lightest place within reach: the jewel's light this pixel belongs to
    vec2 q = p;
    float l = luma_at(p);
    for (int k = 0; k < 8; ++k) {
        float ang = 0.7853982 * float(k);
        vec2 o = p + REACH * r * vec2(cos(ang), sin(ang));
        float s = luma_at(o);
        if (s > l) {
            l = s;
            q = o;
        }
    }
    float lost = l - luma(texture(washes, p / work).rgb);  // (here: its own reach)
    // light as the photo shot it: a face in deep shade keyed up (face_lift.glsl) does not
    // turn its lit ear or collar into a jewel (a gain g takes sRGB values by about g^(1/2.4))
    float shot = l * pow(face_lift(p / u_scale + u_origin, f.z), -1.0 / 2.4);
    if (smoothstep(LIGHT.x, LIGHT.y, shot) <= 0.0 || lost <= STANDS_OUT.x) {
        frag = vec4(0.0);
        return;
    }
    vec4 near = lighter_than_round(q, l, r);
    if (near.x <= STANDS_OUT.x) {
        frag = vec4(0.0);
        return;
    }
    vec4 far = lighter_than_round(q, l, 2.0 * r);
    float stands = min(near.x, far.x);
    float s = smoothstep(STANDS_OUT.x, STANDS_OUT.y, min(stands, lost))
              * smoothstep(LIGHT.x, LIGHT.y, shot) * where;
    if (s > 0.0) {
        s *= 1.0 - crowded(q, l, vec2(-near.z, near.y), r, stands);
        // on the neck and chest a jewel lies on skin or cloth, even round it; lit strands
        // of hair lie on their own dark gaps and other strands
        float even = 1.0 - smoothstep(EVEN.x, EVEN.y, far.w / max(stands, 1e-3));
        s *= mix(1.0, even, zone.z);
    }
    frag = vec4(s, 0.0, 0.0, 1.0);
}
