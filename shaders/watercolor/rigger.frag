#version 330 core
// The rigger's lines, found (the composite draws them, rigger.glsl): a painter lays the big
// washes first, then draws the thin darks last with a rigger (a mast, a lattice, a trunk, a
// wire) and leaves the tiny lights as paper (stars, glints). The half-size washes lose
// anything a few px wide (their abstraction keeps about a twentieth of a thin line's contrast,
// scripts/eval_thin.py --stages), so the lines come from the photo: where a pixel is darker
// than both its neighbours across (1.2, 2.4 and 3.6 reference px off) and not along (a line,
// not a dot), as far as the washes are lighter than the photo there (they lost it); the
// lights alike (lighter than both sides across: a thin light line or a point). Never on a
// face: its features have their own accents, and hairlines there were judged worse
// (BENCHMARKS.md). Only structure, not texture (judged: wood grain drawn as hatching, a
// patch's lettering pasted in): a dark or light line must go on along its direction (a mast,
// not a scratch) and have no parallel lines close by on both sides (not grain, fabric,
// lettering); its strength is the mean along it, so it is drawn as one stroke, not dashes. A
// point light must be lighter than all round it (a star, not a spike's or a scratch's speck).
// .rgb the dark line's transmittance (the photo's line over its sides, per channel: the
// line's colour as a glaze over the wash), .a the line's strength (> 0) or a light's (< 0).
// tiles: reach ceil(7.0 * max(1.0, 1.2 * u_px)) + 1
out vec4 frag;
uniform sampler2D photo;   // the picture, work size, sRGB values
uniform sampler2D washes;  // the painted washes, half work size
uniform sampler2D focus;   // .z the face (focus.frag)
uniform int u_subject;
uniform float u_px;        // work px per reference px
uniform vec2 u_resolution; // the work size

const float RADIUS = 1.2;          // reference px: the nearer side of a line, at least 1 px
const vec2 DARK_LOST = vec2(0.06, 0.2);     // of luma: a dark line's contrast the washes lost
const vec2 LIGHT_LOST = vec2(0.1, 0.3);     // ... a light's
const vec2 LIGHT_LEVEL = vec2(0.45, 0.7);   // the photo's luma from which a light is a light
const vec2 POINT_LOST = vec2(0.15, 0.35);   // ... a point light's, lighter than all round it
const float NOT_ON_FACE = 0.02;    // of the face map from which nothing is drawn
const vec2 ALONG = vec2(0.15, 0.45);  // of the samples along a line that go on: a line, not a scratch
const vec2 CROWDED = vec2(0.3, 0.75);  // of the parallel samples that are lines too: texture

float luma3(vec3 c) {
    return dot(c, vec3(0.2126, 0.7152, 0.0722));
}

float luma_at(vec2 q, vec2 px) {
    return luma3(texture(photo, q * px).rgb);
}

// One direction `d` (work px) across a possible line at `p` of luma `l`: how much darker it is
// than both sides (`most`; `least` the directions' least, with `along`: along a line, where it
// is not darker), and how much lighter (`light`; `lleast` with `lalong` alike; `iso` the
// least, a point's).
void across(vec2 p, vec2 px, float l, vec2 d, inout float most, inout float least,
            inout vec2 along, inout float light, inout float lleast, inout vec2 lalong,
            inout float iso) {
    float la = luma_at(p + d, px);
    float lb = luma_at(p - d, px);
    float dd = min(la, lb) - l;
    most = max(most, dd);
    if (dd < least) {
        least = dd;
        along = d;
    }
    float ll = l - max(la, lb);
    light = max(light, ll);
    if (ll < lleast) {
        lleast = ll;
        lalong = d;
    }
    iso = min(iso, ll);
}

// The same line's contrast across `d` at `q` (signed: darker > 0 for `sgn` 1, lighter for -1).
float line_at_q(vec2 q, vec2 px, vec2 d, float sgn) {
    float l = luma_at(q, px);
    float la = luma_at(q + d, px);
    float lb = luma_at(q - d, px);
    return sgn > 0.0 ? min(la, lb) - l : l - max(la, lb);
}

// How a line of contrast `c` along `t` (its across offset `d`) at `p` goes on along (the fraction of 6 samples up to
// 6 r1 each way with half its contrast: .x; their mean contrast with its own: .y) and how
// crowded it is by parallel lines (the fraction of 4 samples 2.5 and 4 r1 off across: .z).
vec3 support(vec2 p, vec2 px, vec2 along, float c, float sgn, float r1) {
    vec2 t = normalize(along);
    vec2 n = vec2(-t.y, t.x);
    vec2 d = n * length(along);
    float on = 0.0, sum = c;
    for (int k = 1; k <= 3; ++k) {
        for (int s = -1; s <= 1; s += 2) {
            float ck = line_at_q(p + t * (float(s * k) * 1.5 * r1), px, d, sgn);
            on += step(0.35 * c, ck);
            sum += clamp(ck, 0.0, c);
        }
    }
    float crowd = 0.0;
    for (int k = 0; k < 2; ++k) {
        float o = (k == 0 ? 2.5 : 4.0) * r1;
        for (int s = -1; s <= 1; s += 2) {
            crowd += step(0.5 * c, line_at_q(p + n * (float(s) * o), px, d, sgn));
        }
    }
    return vec3(on / 6.0, sum / 7.0, crowd / 4.0);
}

void main() {
    vec2 p = gl_FragCoord.xy;
    vec2 px = 1.0 / u_resolution;
    vec3 here = texture(photo, p * px).rgb;
    float l = luma3(here);
    float dark = 0.0, light = 0.0, point = 0.0;
    vec2 line_at = vec2(0.0);   // the offset across the strongest dark line
    vec2 dark_along = vec2(1.0, 0.0), light_along = vec2(1.0, 0.0);  // the lines' direction
    float r1 = max(1.0, RADIUS * u_px);
    for (int k = 1; k <= 3; ++k) {
        float r = r1 * float(k);
        float most = -1.0, least = 1.0, lmost = -1.0, lleast = 1.0, iso = 1.0;
        vec2 al = vec2(r, 0.0), lal = vec2(r, 0.0);
        across(p, px, l, vec2(r, 0.0), most, least, al, lmost, lleast, lal, iso);
        across(p, px, l, vec2(0.0, r), most, least, al, lmost, lleast, lal, iso);
        across(p, px, l, vec2(0.7071 * r, 0.7071 * r), most, least, al, lmost, lleast, lal, iso);
        across(p, px, l, vec2(0.7071 * r, -0.7071 * r), most, least, al, lmost, lleast, lal, iso);
        float line = most - max(least, 0.0);
        if (line > dark) {
            dark = line;
            dark_along = al;
            line_at = vec2(-al.y, al.x);  // across the line, as far off as its sides
        }
        float lline = lmost - max(lleast, 0.0);
        if (lline > light) {
            light = lline;
            light_along = lal;
        }
        if (k >= 2) {  // a point: lighter than its whole ring, 2.4 and 3.6 reference px off
            point = max(point, iso);
        }
    }
    // a line: long (goes on along) and alone (no parallel lines close by), its strength the
    // mean along it
    if (dark > 0.0) {
        vec3 s = support(p, px, dark_along, dark, 1.0, r1);
        dark = max(s.y, 0.7 * dark) * smoothstep(ALONG.x, ALONG.y, s.x) * (1.0 - smoothstep(CROWDED.x, CROWDED.y, s.z));
    }
    if (light > 0.0) {
        vec3 s = support(p, px, light_along, light, -1.0, r1);
        light = max(s.y, 0.7 * light) * smoothstep(ALONG.x, ALONG.y, s.x) * (1.0 - smoothstep(CROWDED.x, CROWDED.y, s.z));
    }
    // what the washes lost: no more of the line than they are lighter than the photo here
    // (a line they kept, they are as dark as), the lights alike
    float w = luma3(texture(washes, p * px).rgb);
    float s_dark = smoothstep(DARK_LOST.x, DARK_LOST.y, min(dark, w - l));
    float s_light = max(smoothstep(LIGHT_LOST.x, LIGHT_LOST.y, min(light, l - w)),
                        smoothstep(POINT_LOST.x, POINT_LOST.y, min(point, l - w)))
                    * smoothstep(LIGHT_LEVEL.x, LIGHT_LEVEL.y, l);
    if (u_subject != 0) {
        float off = 1.0 - smoothstep(0.0, NOT_ON_FACE, texture(focus, p * px).z);
        s_dark *= off;
        s_light *= off;
    }
    if (s_dark >= s_light) {
        vec3 sides = 0.5 * (texture(photo, (p + line_at) * px).rgb
                            + texture(photo, (p - line_at) * px).rgb);
        frag = vec4(clamp(here / max(sides, vec3(0.02)), 0.0, 1.0), s_dark);
    } else {
        frag = vec4(1.0, 1.0, 1.0, -s_light);
    }
}
