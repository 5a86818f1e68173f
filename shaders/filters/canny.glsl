// Canny edge states, shared by the Canny passes of the `edges` style. One value per pixel
// in an r8 target: 0 no edge, 0.5 a weak edge (a local maximum of the gradient magnitude
// between the two thresholds), 1 a strong edge (above the high threshold, or a weak edge
// that hysteresis has joined to a strong one).

const float CANNY_NONE = 0.0;
const float CANNY_WEAK = 0.5;
const float CANNY_STRONG = 1.0;

bool canny_strong(float state) {
    return state > 0.75;
}

// A weak or a strong edge: what hysteresis may walk through.
bool canny_edge(float state) {
    return state > 0.25;
}
