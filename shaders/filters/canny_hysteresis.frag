#version 330 core
// Canny, step 3 (repeated, ping-pong on one target): hysteresis. A weak edge becomes strong
// when a chain of weak edges (8-connected) joins it to a strong one. Each pass looks at the
// window of REACH pixels around a weak pixel: the window's edges as bit rows, flooded from
// its strong pixels through its weak ones; so every pass grows the strong edges by at least
// REACH pixels along any chain (N passes: N * REACH), however the chain winds. Only weak
// pixels do this work; every other pixel keeps its state.
// tiles: reach 4
#include "filters/canny.glsl"
out vec4 frag;
uniform sampler2D state;

const int REACH = 4;
const int SIDE = 2 * REACH + 1;        // window side; bit c of a row is column p.x - REACH + c
const int MAX_SWEEPS = 2 * SIDE;        // more than enough for any chain inside the window

void main() {
    ivec2 p = ivec2(gl_FragCoord.xy);
    float here = texelFetch(state, p, 0).r;
    if (!canny_edge(here) || canny_strong(here)) {
        frag = vec4(here, 0.0, 0.0, 1.0);
        return;
    }
    ivec2 size = textureSize(state, 0);
    uint strong[SIDE];
    uint edge[SIDE];
    for (int r = 0; r < SIDE; r++) {
        strong[r] = 0u;
        edge[r] = 0u;
        for (int c = 0; c < SIDE; c++) {
            ivec2 q = p + ivec2(c - REACH, r - REACH);
            if (all(greaterThanEqual(q, ivec2(0))) && all(lessThan(q, size))) {
                float v = texelFetch(state, q, 0).r;
                if (canny_edge(v)) edge[r] |= 1u << uint(c);
                if (canny_strong(v)) strong[r] |= 1u << uint(c);
            }
        }
    }
    const uint CENTER = 1u << uint(REACH);
    bool joined = false;
    for (int sweep = 0; sweep < MAX_SWEEPS && !joined; sweep++) {
        bool grew = false;
        for (int k = 0; k < SIDE; k++) {
            int r = (sweep % 2 == 0) ? k : SIDE - 1 - k;  // down, then up
            uint near = strong[r];
            if (r > 0) near |= strong[r - 1];
            if (r < SIDE - 1) near |= strong[r + 1];
            uint s = strong[r] | (((near << 1) | near | (near >> 1)) & edge[r]);
            for (int i = 0; i < SIDE; i++) {  // along the row's runs of edges
                uint t = s | (((s << 1) | (s >> 1)) & edge[r]);
                if (t == s) break;
                s = t;
            }
            if (s != strong[r]) {
                strong[r] = s;
                grew = true;
            }
        }
        joined = (strong[REACH] & CENTER) != 0u;
        if (!grew) break;
    }
    frag = vec4(joined ? CANNY_STRONG : CANNY_WEAK, 0.0, 0.0, 1.0);
}
