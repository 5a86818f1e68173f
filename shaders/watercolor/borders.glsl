// The frame's borders a painting stops at: the picture's own, or where a film's letterbox
// bars begin (u_content: the picture between them, x0, y0, x1, y1 source px of the whole
// picture; all 0 without bars: engine/letterbox.py). A scene's margins and a portrait's fade
// run to them, so the bars are left bare paper. Needs u_picture declared before it.

uniform vec4 u_content;

// The picture between the bars (x0, y0, x1, y1 source px).
vec4 content_rect() {
    return u_content.z > 0.0 ? u_content : vec4(0.0, 0.0, u_picture);
}

// Source px from `p` to the nearest left or right (x) and top or bottom (y) border
// (negative in a bar).
vec2 to_borders(vec2 p) {
    vec4 c = content_rect();
    return min(p - c.xy, c.zw - p);
}

// The picture's short side between the bars (source px).
float content_short_side() {
    vec4 c = content_rect();
    return min(c.z - c.x, c.w - c.y);
}
