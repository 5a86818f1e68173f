#version 330 core
// Saliency, step 1: the mean Lab colour of each block of a small frame (1/16 of the work
// size), 4x4 bilinear taps over the block of the Lab image it covers.
// tiles: reach 0
out vec4 frag;
uniform sampler2D lab;
uniform vec2 u_resolution;
uniform vec4 u_window;  // whole-picture uv -> a tile's (engine/tiles.py); identity untiled

void main() {
    vec2 block = 1.0 / u_resolution;          // this texel's footprint in uv
    vec2 uv0 = (gl_FragCoord.xy - 0.5) * block;
    vec3 sum = vec3(0.0);
    for (int j = 0; j < 4; j++) {
        for (int i = 0; i < 4; i++) {
            vec2 uv = uv0 + (vec2(i, j) + 0.5) * 0.25 * block;
            sum += texture(lab, uv * u_window.xy + u_window.zw).xyz;
        }
    }
    frag = vec4(sum / 16.0, 1.0);
}
