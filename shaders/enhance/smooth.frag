#version 330 core
// Statistics (lookup tables, mean colours) eased over time, so a video's exposure does not
// pump from frame to frame: the previous frame's kept with weight `smoothing`.
uniform sampler2D cur;
uniform sampler2D prev;
uniform float u_smoothing;
out vec4 frag;

void main() {
    ivec2 p = ivec2(gl_FragCoord.xy);
    frag = mix(texelFetch(cur, p, 0), texelFetch(prev, p, 0), u_smoothing);
}
