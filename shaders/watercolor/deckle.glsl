// A deckled edge: the sheet's border torn irregular, the backdrop (white) beyond it, a faint
// shadow where the paper lifts. `p`: the whole picture's source px; off when u_deckle is 0.
// Needs noise.glsl.
uniform float u_deckle;
uniform vec2 u_picture;  // the whole picture's size, source px

vec3 deckled(vec3 c, vec2 p, int seed) {
    if (u_deckle <= 0.0) {
        return c;
    }
    float short_side = min(u_picture.x, u_picture.y);
    vec2 d = min(p, u_picture - p);
    // along the nearer border: the tear wanders with low-frequency noise of that coordinate
    float along = d.x < d.y ? p.y : p.x;
    float tear = fbm(vec2(along / (0.012 * short_side), d.x < d.y ? 3.0 : 11.0), 3, seed, 701);
    float width = u_deckle * 0.025 * short_side * (0.4 + 1.2 * tear);
    float inside = smoothstep(width - 1.5, width + 1.5, min(d.x, d.y));
    float shadow = 1.0 - 0.08 * (1.0 - smoothstep(width, width + 3.0, min(d.x, d.y)));
    return mix(vec3(1.0), c * shadow, inside);
}
