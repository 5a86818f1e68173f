#version 330 core
// A draft's abstraction enlarged to the size its tones are quantized at (issue 12): the
// abstraction, the costly part, is painted small; its tones are quantized at full quality,
// so the washes' borders fall where a full-size render puts them. At exactly twice the size
// the lightness L comes from the learned x2 filters (abstraction_x2: trained on photos'
// luma, which L*/100 resembles); a and b, and other ratios, are bilinear (all of it with
// the pipeline's plain bilinear enlargement).
out vec4 frag;
uniform sampler2D src;      // Lab, abstracted, small (linear filtering)
uniform sampler2D quad;     // abstraction_x2: the four enlarged L of each small texel
uniform vec2 u_resolution;  // this (output) target
uniform int u_learned;      // 0: all bilinear (a draft enlarged plainly, for comparisons)

void main() {
    vec4 lab = texture(src, gl_FragCoord.xy / u_resolution);
    ivec2 lr = textureSize(src, 0);
    ivec2 ratio = ivec2(u_resolution) - 2 * lr;
    if (u_learned != 0 && abs(ratio.x) <= 1 && abs(ratio.y) <= 1) {
        ivec2 X = ivec2(gl_FragCoord.xy);
        ivec2 t = X >> 1;
        // an odd output size's last row or column (2 lr + 1): the last texel's second phase
        ivec2 ph = ivec2(mix(vec2(X & 1), vec2(1.0), greaterThan(t, lr - 1)));
        vec4 q = texelFetch(quad, min(t, lr - 1), 0);
        lab.x = 100.0 * q[ph.y * 2 + ph.x];
    }
    frag = lab;
}
