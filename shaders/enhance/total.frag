#version 330 core
// The sum of every texel of `src` (a small target of block sums) into one texel.
uniform sampler2D src;
out vec4 frag;

void main() {
    ivec2 size = textureSize(src, 0);
    vec4 sum = vec4(0.0);
    for (int i = 0; i < size.x * size.y; ++i)
        sum += texelFetch(src, ivec2(i % size.x, i / size.x), 0);
    frag = sum;
}
