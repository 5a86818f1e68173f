#version 330 core
// TEMPORARY stand-in for dibr.frag while it is being written (one-tap shift).
in vec2 v_uv;
out vec4 frag;
uniform sampler2D image;
uniform sampler2D disparity;
uniform float u_shift;
uniform float u_max_shift;

void main() {
    float d = texture(disparity, v_uv).r;
    vec2 size = vec2(textureSize(image, 0));
    frag = vec4(texture(image, v_uv + vec2(u_shift * d / size.x, 0.0)).rgb, 1.0);
}
