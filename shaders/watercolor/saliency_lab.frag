#version 330 core
// The mean Lab colour of each block of a small frame (saliency, step 1, at 1/16 of the work
// size; the shapes' grid): n x n bilinear taps over the block of the Lab image it covers, n
// at least 4 and enough for a big block (two texels a tap). `u_round` > 0: rounded to
// 1/u_round units, so a tile's float rounding of its taps (engine/tiles.py) does not flip
// the shapes' choices (a texel's seed is an argmin) where the whole picture's would not.
// tiles: reach 0
out vec4 frag;
uniform sampler2D lab;
uniform vec2 u_resolution;
uniform vec4 u_window;  // whole-picture uv -> a tile's (engine/tiles.py); identity untiled
uniform float u_round;

void main() {
    vec2 block = 1.0 / u_resolution;          // this texel's footprint in uv
    vec2 texels = block * u_window.xy * vec2(textureSize(lab, 0));
    int n = int(clamp(ceil(0.5 * max(texels.x, texels.y)), 4.0, 12.0));
    vec2 uv0 = (gl_FragCoord.xy - 0.5) * block;
    vec3 sum = vec3(0.0);
    for (int j = 0; j < n; j++) {
        for (int i = 0; i < n; i++) {
            vec2 uv = uv0 + (vec2(i, j) + 0.5) / float(n) * block;
            sum += texture(lab, uv * u_window.xy + u_window.zw).xyz;
        }
    }
    vec3 mean = sum / float(n * n);
    frag = vec4(u_round > 0.0 ? floor(mean * u_round + 0.5) / u_round : mean, 1.0);
}
