#version 330 core
// Round each texel of the defocus detail (a quarter of the work size), AROUND work px out
// (as many reference px on a picture over 720 lines; at most 12), in whole texels: (.x) the
// steepest gradient and (.y) the lightness range it is measured against (a sharp step crosses
// it within a pixel or two, a defocused one over many); (.z, .w) the texel's own darkest and
// lightest, passed on. (Gathered from each texel's own detail, defocus_detail.frag: the
// window walked per texel read each work px 9 times over.)
// tiles: reach ceil(min(12, ceil(4.0 * max(1.0, u_px))) * u_target_scale)
out vec4 frag;
uniform sampler2D own;    // .x the steepest gradient of a texel's own px, .zw their range
uniform float u_px;       // work px per reference px
uniform float u_target_scale;  // of the work size
uniform vec2 u_resolution;

const float AROUND = 4.0;  // work px round the texel's own (see above)

void main() {
    ivec2 c = ivec2(gl_FragCoord.xy);
    ivec2 hi = ivec2(u_resolution) - 1;
    int r = int(ceil(min(12.0, ceil(AROUND * max(1.0, u_px))) * u_target_scale - 1e-4));
    vec4 here = texelFetch(own, c, 0);
    float lo = here.z, top = here.w, steepest = here.x;
    for (int j = -r; j <= r; ++j) {
        for (int i = -r; i <= r; ++i) {
            vec4 d = texelFetch(own, clamp(c + ivec2(i, j), ivec2(0), hi), 0);
            lo = min(lo, d.z);
            top = max(top, d.w);
            steepest = max(steepest, d.x);
        }
    }
    frag = vec4(steepest, top - lo, here.z, here.w);
}
