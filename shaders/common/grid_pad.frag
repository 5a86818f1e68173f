#version 330 core
// A picture copied texel for texel onto a target of another size: its edge texels repeated
// where the target is larger (a picture padded to the style's grid), cut off where smaller
// (the painting cropped back to the picture). No resampling.
out vec4 frag;
uniform sampler2D src;

void main() {
    ivec2 last = textureSize(src, 0) - 1;
    frag = vec4(texelFetch(src, min(ivec2(gl_FragCoord.xy), last), 0).rgb, 1.0);
}
