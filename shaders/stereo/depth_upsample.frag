#version 330 core
// Joint bilateral upsampling (Kopf et al. 2007): the low-resolution nearness brought to the
// view's size, each low-res sample weighted by its distance and by how much the picture's
// colour there differs from this pixel's: depth edges snap to the picture's edges.
in vec2 v_uv;
out vec4 frag;
uniform sampler2D depth;   // low resolution, nearness in .r
uniform sampler2D guide;   // the picture at full view size
uniform float u_edge_sigma;  // colour difference (0..1) that halves a sample's say

void main() {
    vec2 lo = vec2(textureSize(depth, 0));
    vec2 p = v_uv * lo - 0.5;
    vec2 base = floor(p);
    vec3 c0 = texture(guide, v_uv).rgb;
    float sum = 0.0, wsum = 0.0;
    for (int j = -1; j <= 2; ++j) {
        for (int i = -1; i <= 2; ++i) {
            vec2 q = base + vec2(i, j);
            vec2 quv = (q + 0.5) / lo;
            float ds = length(q - p);
            float ws = exp(-ds * ds / 1.5);
            vec3 cq = texture(guide, clamp(quv, vec2(0.0), vec2(1.0))).rgb;
            float dc = length(cq - c0);
            // a floor: where no sample looks like this pixel, distance decides
            float wr = exp(-dc * dc / (2.0 * u_edge_sigma * u_edge_sigma)) + 1e-3;
            float z = texelFetch(depth, ivec2(clamp(q, vec2(0.0), lo - 1.0)), 0).r;
            sum += ws * wr * z;
            wsum += ws * wr;
        }
    }
    frag = vec4(sum / max(wsum, 1e-6), 0.0, 0.0, 1.0);
}
