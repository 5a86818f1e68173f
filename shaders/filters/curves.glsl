// A tone curve through five points: (0, 0), (0.25, a), (0.5, b), (0.75, c), (1, 1), as a
// monotone cubic (Fritsch & Carlson 1980): a cubic Hermite spline whose tangents are the mean
// of the neighbouring secants, zero where the curve turns (or a segment is flat), and
// shortened where they would overshoot (alpha^2 + beta^2 > 9). Between two points it never
// leaves their range, so a rising set of points gives a rising curve without ringing.

const int CURVE_POINTS = 5;
const float CURVE_STEP = 0.25;  // the points' spacing in x

// The tangents at the five points, for the levels y (y[0] = 0, y[4] = 1).
void curve_tangents(float y[CURVE_POINTS], out float m[CURVE_POINTS]) {
    float d[CURVE_POINTS - 1];
    for (int k = 0; k < CURVE_POINTS - 1; k++) {
        d[k] = (y[k + 1] - y[k]) / CURVE_STEP;
    }
    m[0] = d[0];
    m[CURVE_POINTS - 1] = d[CURVE_POINTS - 2];
    for (int k = 1; k < CURVE_POINTS - 1; k++) {
        m[k] = d[k - 1] * d[k] > 0.0 ? 0.5 * (d[k - 1] + d[k]) : 0.0;
    }
    for (int k = 0; k < CURVE_POINTS - 1; k++) {  // in order, as Fritsch and Carlson do
        if (d[k] == 0.0) {
            m[k] = 0.0;
            m[k + 1] = 0.0;
        } else {
            float alpha = m[k] / d[k];
            float beta = m[k + 1] / d[k];
            float r2 = alpha * alpha + beta * beta;
            if (r2 > 9.0) {
                float tau = 3.0 / sqrt(r2);
                m[k] = tau * alpha * d[k];
                m[k + 1] = tau * beta * d[k];
            }
        }
    }
}

// The curve at x in [0, 1].
float curve_eval(float x, float y[CURVE_POINTS], float m[CURVE_POINTS]) {
    x = clamp(x, 0.0, 1.0);
    int k = min(int(x / CURVE_STEP), CURVE_POINTS - 2);
    float t = x / CURVE_STEP - float(k);
    float t2 = t * t;
    float t3 = t2 * t;
    return (2.0 * t3 - 3.0 * t2 + 1.0) * y[k] + (t3 - 2.0 * t2 + t) * CURVE_STEP * m[k]
        + (-2.0 * t3 + 3.0 * t2) * y[k + 1] + (t3 - t2) * CURVE_STEP * m[k + 1];
}
