// One pigment over the painting (a monochrome study, a night's glaze): each colour's density
// (1 - c, per channel) redrawn as that of the tint pigment at the same luma, u_tint of the
// way. The paper (c = 1) keeps its colour and every luma is kept; sepia is burnt umber at 1,
// a nocturne Payne's grey part of the way. Needs color.glsl.
uniform float u_tint;
uniform vec3 u_tint_color;

vec3 tinted(vec3 c) {
    if (u_tint <= 0.0) {
        return c;
    }
    // the tint's absorption per channel, scaled to absorb one unit of luma
    vec3 absorb = (1.0 - u_tint_color) / max(1.0 - luma(u_tint_color), 0.05);
    vec3 mono = 1.0 - clamp((1.0 - luma(c)) * absorb, 0.0, 1.0);
    return mix(c, mono, u_tint);
}
