"""The sound the window plays: interleaved 16-bit stereo PCM at 48 kHz."""

RATE = 48000  # samples a second a channel
CHANNELS = 2
FRAME_BYTES = 2 * CHANNELS  # one sample of each channel, 16-bit
BYTES_PER_SECOND = RATE * FRAME_BYTES


def silence(frames: int) -> bytes:
    """`frames` sample frames of silence."""
    return bytes(max(0, frames) * FRAME_BYTES)
