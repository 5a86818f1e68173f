// Seeded value noise that moves with the content: with the temporal canvas on (and a
// previous frame), looked up through the two advected coordinate layers and blended with
// contrast renormalization; otherwise at the source pixel itself. Needs noise.glsl and
// canvas.glsl, and the caller's u_seed, u_temporal, u_history, canvas0 and canvas1.
float canvas_noise(vec2 p_src, vec2 uv, float cell, int salt) {
    if (u_temporal == 0 || u_history == 0) {
        return value_noise(p_src / cell, u_seed, salt);
    }
    vec4 a = texture(canvas0, uv);
    vec4 b = texture(canvas1, uv);
    return canvas_blend(value_noise(a.xy / cell, u_seed, salt),
                        value_noise(b.xy / cell, u_seed, salt), canvas_weight(a),
                        canvas_weight(b), smooth_rho(a.xy - b.xy, cell));
}
