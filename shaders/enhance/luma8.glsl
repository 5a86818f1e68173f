// Luma of an 8-bit RGB pixel as OpenCV's RGB->YCrCb computes it (BT.601, 14-bit fixed
// point): the integer 0..255 that histograms count and lookup tables are indexed by.
float luma8(vec3 rgb) {
    vec3 v = floor(rgb * 255.0 + 0.5);
    return floor((dot(v, vec3(4899.0, 9617.0, 1868.0)) + 8192.0) / 16384.0);
}

// The tile a pixel belongs to: tiles of ceil(size / tiles) pixels (OpenCV's CLAHE pads the
// picture to a multiple of the tile count).
ivec2 tile_size(ivec2 size, ivec2 tiles) {
    return (size + tiles - 1) / tiles;
}
