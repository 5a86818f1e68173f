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
// (BENCHMARKS.md).
// .rgb the dark line's transmittance (the photo's line over its sides, per channel: the
// line's colour as a glaze over the wash), .a the line's strength (> 0) or a light's (< 0).
// tiles: reach ceil(3.0 * max(1.0, 1.2 * u_px)) + 1
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
const float NOT_ON_FACE = 0.02;    // of the face map from which nothing is drawn

float luma3(vec3 c) {
    return dot(c, vec3(0.2126, 0.7152, 0.0722));
}

// One direction `d` (work px) across a possible line at `p` of luma `l`: how much darker it is
// than both sides (`most`, with the offset `at`; `least` the direction's least, along a line),
// and how much lighter (`light`).
void across(vec2 p, vec2 px, float l, vec2 d, inout float most, inout vec2 at,
            inout float least, inout float light) {
    float la = luma3(texture(photo, (p + d) * px).rgb);
    float lb = luma3(texture(photo, (p - d) * px).rgb);
    float dd = min(la, lb) - l;
    if (dd > most) {
        most = dd;
        at = d;
    }
    least = min(least, dd);
    light = max(light, l - max(la, lb));
}

void main() {
    vec2 p = gl_FragCoord.xy;
    vec2 px = 1.0 / u_resolution;
    vec3 here = texture(photo, p * px).rgb;
    float l = luma3(here);
    float dark = 0.0, light = 0.0;
    vec2 line_at = vec2(0.0);  // the offset across the strongest line
    float r1 = max(1.0, RADIUS * u_px);
    for (int k = 1; k <= 3; ++k) {
        float r = r1 * float(k);
        float most = -1.0, least = 1.0;
        vec2 at = vec2(r, 0.0);
        across(p, px, l, vec2(r, 0.0), most, at, least, light);
        across(p, px, l, vec2(0.0, r), most, at, least, light);
        across(p, px, l, vec2(0.7071 * r, 0.7071 * r), most, at, least, light);
        across(p, px, l, vec2(0.7071 * r, -0.7071 * r), most, at, least, light);
        float line = most - max(least, 0.0);
        if (line > dark) {
            dark = line;
            line_at = at;
        }
    }
    // what the washes lost: no more of the line than they are lighter than the photo here
    // (a line they kept, they are as dark as), the lights alike
    float w = luma3(texture(washes, p * px).rgb);
    float s_dark = smoothstep(DARK_LOST.x, DARK_LOST.y, min(dark, w - l));
    float s_light = smoothstep(LIGHT_LOST.x, LIGHT_LOST.y, min(light, l - w))
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
