// Source px of the paper's grain unit on a picture of `ref` source px per reference px: the
// pixel's up to the reference frame, and above it the square root of its growth (blind
// pairs: grain at the reference frame's size reads as soft lumpy stucco at 100% on a 4K
// photo, at the pixel's it vanishes when the photo is shrunk; between, crisp tooth that
// still shows on a thumbnail).
float paper_grain_px(float ref) {
    return sqrt(max(ref, 1.0));
}
