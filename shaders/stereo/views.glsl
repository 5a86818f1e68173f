// Where a view's pixels are in the frame: the whole frame (mono), or its left / right half
// (a side-by-side stereo pair, u_input == 1). `uv` is the view's 0..1 position.
vec2 view_uv(vec2 uv, int input_layout, int eye) {
    if (input_layout == 1)
        return vec2(0.5 * uv.x + (eye == 1 ? 0.5 : 0.0), uv.y);
    return uv;
}
