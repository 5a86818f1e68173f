// Disparity lookups for view synthesis (dibr.frag, naive_shift.frag). The disparity map may be
// smaller than the picture: it is read with normalized coordinates of the picture's pixel
// centres, through the pass's sampler (`nearest` keeps depth edges sharp; `linear` turns an
// edge of a smaller map into a ramp, which dibr.frag then treats as a steep surface).
// Values are in picture pixels of the source view, larger = nearer.

// The disparity at the centre of picture pixel (x, row) of a picture `size` pixels large.
float dibr_disparity_at(sampler2D disp, int x, int row, vec2 size) {
    return texture(disp, (vec2(float(x), float(row)) + 0.5) / size).r;
}
