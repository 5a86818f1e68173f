"""The One Euro filter (Casiez, Roussel, Vogel, CHI 2012): a low-pass whose cutoff rises with
the signal's speed, so a still point stops jittering and a moving one does not lag. Works on
arrays (a face's 468 landmarks at once), each element filtered on its own."""

from __future__ import annotations

import math

import numpy as np

# The usual starting values for positions in pixels (the paper's, and MediaPipe's)
MIN_CUTOFF_HZ = 1.0
BETA = 0.007
DERIVATIVE_CUTOFF_HZ = 1.0


def _alpha(cutoff: np.ndarray | float, dt: float) -> np.ndarray | float:
    tau = 1.0 / (2.0 * math.pi * np.asarray(cutoff))
    return 1.0 / (1.0 + tau / dt)


class OneEuroFilter:
    """Filters a stream of equally shaped arrays given with their times (seconds)."""

    def __init__(self, *, min_cutoff: float = MIN_CUTOFF_HZ, beta: float = BETA,
                 d_cutoff: float = DERIVATIVE_CUTOFF_HZ) -> None:
        self.min_cutoff = min_cutoff
        self.beta = beta
        self.d_cutoff = d_cutoff
        self._x: np.ndarray | None = None
        self._dx: np.ndarray | None = None
        self._t: float | None = None

    def reset(self) -> None:
        """Forget the past (a cut, a seek, a face lost)."""
        self._x = self._dx = self._t = None

    def __call__(self, x: np.ndarray, t: float) -> np.ndarray:
        """The filtered value of `x` observed at time `t`."""
        x = np.asarray(x, np.float64)
        if self._x is None or self._t is None or self._x.shape != x.shape or t <= self._t:
            self._x, self._dx, self._t = x.copy(), np.zeros_like(x), t
            return x.copy()
        dt = t - self._t
        assert self._dx is not None
        dx = (x - self._x) / dt
        a_d = _alpha(self.d_cutoff, dt)
        self._dx = self._dx + a_d * (dx - self._dx)
        cutoff = self.min_cutoff + self.beta * np.abs(self._dx)
        a = _alpha(cutoff, dt)
        self._x = self._x + a * (x - self._x)
        self._t = t
        return self._x.copy()
