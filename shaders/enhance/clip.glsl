// CLAHE's clip limit in counts, as OpenCV computes it: clipLimit x the tile's mean count per
// bin, truncated, at least 1.
float clip_limit(float clip, float total) {
    return max(floor(clip * total / 256.0), 1.0);
}
