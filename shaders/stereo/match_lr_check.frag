#version 330 core
// Stereo matching, step 7: the left-right consistency check. The left disparity dL at x is
// kept when it is unique and the right view's disparity where it lands agrees:
// |dL(x) - dR(x - dL(x))| <= u_lr_tolerance; else -1 (occluded or mismatched).
out vec4 frag;
uniform sampler2D left;   // match_wta_left: .r disparity, .g unique
uniform sampler2D right;  // match_wta_right: .r disparity
uniform float u_lr_tolerance;

void main() {
    ivec2 p = ivec2(gl_FragCoord.xy);
    vec4 l = texelFetch(left, p, 0);
    int xr = p.x - int(floor(l.r + 0.5));
    bool ok = l.g > 0.5 && xr >= 0;
    if (ok) ok = abs(l.r - texelFetch(right, ivec2(xr, p.y), 0).r) <= u_lr_tolerance;
    frag = vec4(ok ? l.r : -1.0, 0.0, 0.0, 1.0);
}
