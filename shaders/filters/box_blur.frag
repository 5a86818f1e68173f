#version 330 core
// One direction of a separable box blur: the mean of the 2r + 1 texels centred on this one
// along u_dir, replicated borders (cv2.blur / cv2.boxFilter with BORDER_REPLICATE). The
// radius is in work pixels; 0 leaves the picture as it is.
// tiles: reach along(u_dir, max(0, min(32, u_box_radius)))
out vec4 frag;
uniform sampler2D src;
uniform vec2 u_dir;  // (1,0) or (0,1)
uniform int u_box_radius;

const int MAX_RADIUS = 32;

void main() {
    ivec2 p = ivec2(gl_FragCoord.xy);
    ivec2 lim = textureSize(src, 0) - 1;
    ivec2 d = ivec2(u_dir);
    int r = clamp(u_box_radius, 0, MAX_RADIUS);
    vec4 sum = texelFetch(src, p, 0);
    for (int k = 1; k <= MAX_RADIUS; k++) {
        if (k > r) break;
        sum += texelFetch(src, clamp(p + k * d, ivec2(0), lim), 0)
             + texelFetch(src, clamp(p - k * d, ivec2(0), lim), 0);
    }
    frag = sum / float(2 * r + 1);
}
