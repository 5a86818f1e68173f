#version 330 core
// View synthesis baseline: a one-tap shift. Output pixel x reads the picture at
// x + u_shift * d(x), d taken at the OUTPUT position (the source view's disparity where the
// new view is): right on flat depth, wrong near every depth edge (the foreground's outline
// is copied, stretched or doubled, and holes get whatever lies there). Same interface as
// dibr.frag; u_max_shift is unused.
out vec4 frag;
uniform sampler2D image;      // the source view (sRGB values)
uniform sampler2D disparity;  // r32f, picture pixels, larger = nearer; may be smaller
uniform float u_shift;        // a source pixel at x lands at x - u_shift * d(x)
uniform float u_max_shift;    // unused here

void main() {
    vec2 size = vec2(textureSize(image, 0));
    vec2 uv = gl_FragCoord.xy / size;
    float d = texture(disparity, uv).r;
    frag = texture(image, vec2(uv.x + u_shift * d / size.x, uv.y));
}
