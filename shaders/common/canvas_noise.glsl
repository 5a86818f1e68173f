// Seeded value noise that moves with the content: with the temporal canvas on (and a
// previous frame), looked up through the two advected coordinate layers and blended with
// contrast renormalization; otherwise at the source pixel itself. Needs noise.glsl and
// canvas.glsl, and the caller's u_seed, u_temporal, u_history, canvas0 and canvas1.
float canvas_noise(vec2 p_src, vec2 uv, float cell, int salt) {
    if (u_temporal == 0 || u_history == 0) {
        return value_noise(p_src / cell, u_seed, salt);
    }
    // (level 0 named: callers may look up in non-uniform control flow, where a texture()
    // call's implicit derivatives are undefined; the layers have no mipmaps)
    vec4 a = textureLod(canvas0, uv, 0.0);
    vec4 b = textureLod(canvas1, uv, 0.0);
    return canvas_blend(value_noise(a.xy / cell, u_seed, salt),
                        value_noise(b.xy / cell, u_seed, salt), canvas_weight(a),
                        canvas_weight(b), smooth_rho(a.xy - b.xy, cell));
}
