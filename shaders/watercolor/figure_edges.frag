#version 330 core
// The figure's outline laid on the photo's own edges. The person mask comes from a model on
// a 256 px grid, smoothed (engine/subject_map.py): its outline is a soft, faceted blob that
// knows nothing of the curls, arms and hands it cuts through, and the vignette's threshold
// drew that blob (a polygon helmet round dark curls, blocky arms: trial F4). Where the mask
// is unsure (it varies round a texel) its figure is fitted, in a window, as a linear function
// of the photo's colour (a guided filter's local model, He et al. 2010, taken at the texel
// itself): a curl darker than the wall behind it is figure, the wall between curls is not,
// and the step sits where the photo's does. Where the photo has no edge the fit is the
// mask's own mean (its soft outline, left to the vignette's ragged noise). Where the mask is
// sure (the whole window alike) it is kept as it is: no holes inside, nothing out on the
// paper. .y (near the figure) and .z (the face) pass through; the face stays whole.
// tiles: reach 3
out vec4 frag;
uniform sampler2D figure;  // .x the figure, .y near it, .z the face (figure.frag)
uniform sampler2D photo;   // the photo in Lab (L 0..100), any size (to_lab.frag)
uniform vec2 u_resolution;

const int R = 3;            // texels of this target (4 picture px each at full size)
const float SIGMA = 1.6;    // texels: the window's Gaussian weights
const float UNSURE = 0.02;  // the mask's spread in the window below which it is kept
const float EPS = 4.0;      // Lab units squared: colour differences below about 2 are noise
                            // (the fit falls back to the mask's mean there)

void main() {
    ivec2 size = ivec2(u_resolution);
    ivec2 c = ivec2(gl_FragCoord.xy);
    vec4 here = texelFetch(figure, c, 0);
    float lo = here.x, hi = here.x;
    for (int j = -R; j <= R; ++j) {
        for (int i = -R; i <= R; ++i) {
            float p = texelFetch(figure, clamp(c + ivec2(i, j), ivec2(0), size - 1), 0).x;
            lo = min(lo, p);
            hi = max(hi, p);
        }
    }
    if (hi - lo < UNSURE) {
        frag = here;
        return;
    }
    // weighted means and (co)variances of the colour I and the figure p in the window
    float sw = 0.0, mp = 0.0;
    vec3 mi = vec3(0.0), mip = vec3(0.0);
    mat3 mii = mat3(0.0);
    for (int j = -R; j <= R; ++j) {
        for (int i = -R; i <= R; ++i) {
            ivec2 t = clamp(c + ivec2(i, j), ivec2(0), size - 1);
            float w = exp(-float(i * i + j * j) / (2.0 * SIGMA * SIGMA));
            float p = texelFetch(figure, t, 0).x;
            vec3 col = texture(photo, (vec2(t) + 0.5) / u_resolution).xyz;
            sw += w;
            mp += w * p;
            mi += w * col;
            mip += w * col * p;
            mii += w * outerProduct(col, col);
        }
    }
    mp /= sw;
    mi /= sw;
    vec3 cov = mip / sw - mi * mp;
    mat3 var = mii / sw - outerProduct(mi, mi) + mat3(EPS);
    vec3 a = inverse(var) * cov;
    vec3 col = texture(photo, gl_FragCoord.xy / u_resolution).xyz;
    float fitted = clamp(mp + dot(a, col - mi), 0.0, 1.0);
    frag = vec4(max(fitted, here.z), here.yzw);
}
