#version 330 core
// The photo's fine detail of each texel's own work px (a quarter of the work size), for the
// defocus map: (.x) the steepest lightness gradient at the texel's pixel corners (central
// differences one px either side: no sharp line slips between), (.z, .w) the darkest and
// lightest lightness there; defocus_around.frag gathers them over the texels round it.
// Lightness: the photo's sRGB-encoded luma (within a few units of L*, 0..100) of 2x2 px
// (bilinear at a pixel corner: its grain halved, a sharp step barely widened).
// tiles: reach ceil(2.0 * u_target_scale) + 1
out vec4 frag;
uniform sampler2D photo;  // the picture (work size, sRGB values)
uniform vec2 u_resolution;

float lightness(vec2 at, vec2 tx) {
    return 100.0 * dot(texture(photo, at * tx).rgb, vec3(0.2126, 0.7152, 0.0722));
}

void main() {
    vec2 size = vec2(textureSize(photo, 0));
    vec2 tx = 1.0 / size;
    // this texel's work px (the target's texel is a whole number of them: 4)
    int k = max(1, int(size.x / u_resolution.x + 0.5));
    vec2 base = floor(gl_FragCoord.xy) * float(k) + 1.0;  // its first pixel corner
    float lo = 1e9, top = -1e9, steepest = 0.0;
    for (int j = 0; j < k; ++j) {
        for (int i = 0; i < k; ++i) {
            vec2 p = base + vec2(float(i), float(j));
            float l = lightness(p, tx);
            lo = min(lo, l);
            top = max(top, l);
            vec2 g = vec2(lightness(p + vec2(1.0, 0.0), tx) - lightness(p - vec2(1.0, 0.0), tx),
                          lightness(p + vec2(0.0, 1.0), tx) - lightness(p - vec2(0.0, 1.0), tx));
            steepest = max(steepest, 0.5 * length(g));
        }
    }
    frag = vec4(steepest, 0.0, lo, top);
}
