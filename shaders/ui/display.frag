#version 330 core
// Draws a texture (result, original or an intermediate target) mapped for display.
// u_mode: 0 colour, 1 single channel as grey, 2 flow (unit tangent .xy, anisotropy .z) as
// hue, 3 structure tensor (E, |F|, G; tiny values) on a log scale, 4 solid u_color,
// 5 texture coordinates in pixels (.xy; the advected canvas) as a 24 px colour grid.
in vec2 v_uv;
out vec4 frag;
uniform sampler2D u_tex;
uniform int u_mode;
uniform vec2 u_crop;    // visible range of v_uv.x (split compare)
uniform float u_gain;
uniform vec4 u_color;
// A picture drawn smaller than 1:1 (u_area) is the mean of each screen pixel's footprint,
// u_footprint texels wide and high, each texel weighted by how much of it the footprint
// covers, as INTER_AREA shrinks a picture (one linear sample of a big photo at fit, 11%,
// showed its paper grain as speckle). Linear taps between two texels take both at once.
// 1:1 and larger: one sample, as is.
uniform bool u_area;
uniform vec2 u_footprint;
// Magnified as pixels (u_pixelated): the texel under each screen pixel found from the pixel's
// place in the picture (u_origin: the picture's top-left corner in window coordinates), not
// from v_uv, whose interpolation differs a little between the quad's two triangles: where a
// pixel's centre falls on a texel edge (250%, or a picture on a half pixel) one triangle
// took the texel before it and the other the one after, a diagonal seam.
uniform bool u_pixelated;
uniform vec2 u_origin;
const int MAX_PAIRS = 8;  // a side: exact up to 15 texels, beyond evenly spread taps

vec3 hue(float h) {
    vec3 k = clamp(abs(fract(h + vec3(0.0, 2.0, 1.0) / 3.0) * 6.0 - 3.0) - 1.0, 0.0, 1.0);
    return k;
}

// The taps along one axis for a footprint [x0, x1) (texels): pairs of texels i, i+1 taken
// by one linear tap between them at the pair's weights; returns how many (at most MAX_PAIRS).
int pairs(float x0, float x1, out float at[MAX_PAIRS], out float weight[MAX_PAIRS]) {
    int first = int(floor(x0));
    int n = (int(ceil(x1)) - first + 1) / 2;
    if (n > MAX_PAIRS) {  // spread evenly: each tap the mean of two texels
        float step = (x1 - x0) / float(MAX_PAIRS);
        for (int k = 0; k < MAX_PAIRS; ++k) {
            at[k] = x0 + step * (float(k) + 0.5);
            weight[k] = 1.0 / float(MAX_PAIRS);
        }
        return MAX_PAIRS;
    }
    float total = x1 - x0;
    for (int k = 0; k < n; ++k) {
        float i = float(first + 2 * k);
        float a = max(0.0, min(i + 1.0, x1) - max(i, x0));
        float b = max(0.0, min(i + 2.0, x1) - max(i + 1.0, x0));
        at[k] = i + 0.5 + (a + b > 0.0 ? b / (a + b) : 0.0);
        weight[k] = (a + b) / total;
    }
    return n;
}

vec4 area(vec2 uv) {
    vec2 size = vec2(textureSize(u_tex, 0));
    vec2 c = uv * size;
    float ax[MAX_PAIRS], wx[MAX_PAIRS], ay[MAX_PAIRS], wy[MAX_PAIRS];
    int nx = pairs(c.x - 0.5 * u_footprint.x, c.x + 0.5 * u_footprint.x, ax, wx);
    int ny = pairs(c.y - 0.5 * u_footprint.y, c.y + 0.5 * u_footprint.y, ay, wy);
    vec4 sum = vec4(0.0);
    for (int j = 0; j < ny; ++j) {
        for (int i = 0; i < nx; ++i) {
            sum += wx[i] * wy[j] * texture(u_tex, vec2(ax[i], ay[j]) / size);
        }
    }
    return sum;
}

void main() {
    if (v_uv.x < u_crop.x || v_uv.x > u_crop.y) discard;
    if (u_mode == 4) { frag = u_color; return; }
    // (debug mappings of flows and tensors sample as they are: an average is no direction)
    bool averaged = u_area && (u_mode == 0 || u_mode == 1);
    vec4 t;
    if (u_pixelated) {
        vec2 at = vec2(gl_FragCoord.x - u_origin.x, u_origin.y - gl_FragCoord.y) * u_footprint;
        ivec2 last = textureSize(u_tex, 0) - 1;
        t = texelFetch(u_tex, clamp(ivec2(floor(at)), ivec2(0), last), 0);
    } else {
        t = averaged ? area(v_uv) : texture(u_tex, v_uv);
    }
    vec3 c;
    if (u_mode == 1) {
        c = vec3(t.r);
    } else if (u_mode == 2) {
        // A tangent and its negation are the same direction: hue follows twice the angle.
        float angle = atan(t.y, t.x);
        float a = clamp(t.z, 0.0, 1.0);
        c = mix(vec3(0.92), 0.95 * hue(angle / 3.14159265), 0.25 + 0.55 * a);
    } else if (u_mode == 3) {
        c = log(1.0 + u_gain * abs(t.xyz)) / log(1.0 + u_gain);  // log scale: tiny values show
    } else if (u_mode == 5) {
        c = vec3(fract(t.xy / 24.0), 0.6);  // coordinates (px): a grid that moves with them
    } else {
        c = t.rgb;
    }
    frag = vec4(clamp(c, 0.0, 1.0), 1.0);
}
