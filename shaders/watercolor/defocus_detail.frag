#version 330 core
// The photo's fine detail, per texel of a quarter of the work size, for the defocus map
// (defocus.frag): round the texel's own work px, AROUND work px out (as many reference px
// on a picture over 720 lines; at most 12 work px), (.x) the steepest lightness gradient
// (central differences one px either side at every pixel corner: no sharp line slips
// between) and (.y) the lightness range it is measured against (a sharp step crosses it
// within a pixel or two, a defocused one over many); (.z, .w) the darkest and lightest
// lightness of the texel's own px. Lightness: the photo's sRGB-encoded luma (within a few
// units of L*, 0..100) of 2x2 px (bilinear at a pixel corner: its grain halved, a sharp
// step barely widened).
// tiles: reach ceil((min(12, ceil(4.0 * max(1.0, u_px))) + 1.0) * u_target_scale) + 1
out vec4 frag;
uniform sampler2D photo;  // the picture (work size, sRGB values)
uniform float u_px;  // work px per reference px
uniform vec2 u_resolution;

const float AROUND = 4.0;  // work px round the texel's own (see above)

float lightness(vec2 at, vec2 tx) {
    return 100.0 * dot(texture(photo, at * tx).rgb, vec3(0.2126, 0.7152, 0.0722));
}

void main() {
    vec2 size = vec2(textureSize(photo, 0));
    vec2 tx = 1.0 / size;
    // this texel's work px (the target's texel is a whole number of them: 4)
    int k = max(1, int(size.x / u_resolution.x + 0.5));
    vec2 base = floor(gl_FragCoord.xy) * float(k) + 1.0;  // its first pixel corner
    int around = min(12, int(ceil(AROUND * max(1.0, u_px))));
    float lo = 1e9, top = -1e9, steepest = 0.0, own_lo = 1e9, own_top = -1e9;
    for (int j = -around; j < k + around; ++j) {
        for (int i = -around; i < k + around; ++i) {
            vec2 p = base + vec2(float(i), float(j));
            float l = lightness(p, tx);
            lo = min(lo, l);
            top = max(top, l);
            vec2 g = vec2(lightness(p + vec2(1.0, 0.0), tx) - lightness(p - vec2(1.0, 0.0), tx),
                          lightness(p + vec2(0.0, 1.0), tx) - lightness(p - vec2(0.0, 1.0), tx));
            steepest = max(steepest, 0.5 * length(g));
            if (i >= 0 && j >= 0 && i < k && j < k) {
                own_lo = min(own_lo, l);
                own_top = max(own_top, l);
            }
        }
    }
    frag = vec4(steepest, top - lo, own_lo, own_top);
}
