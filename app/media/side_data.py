"""A decoded frame's side data (display matrix, HDR10 metadata...) across PyAV releases:
18.1.0 iterates its SideData, 18.1.1 made `frame.side_data` a mapping whose iteration
gives their types (and whose `values()` 18.1.0 could not give)."""

from __future__ import annotations

import av
from av.sidedata.sidedata import SideData


def frame_side_data(frame: av.VideoFrame) -> list[SideData]:
    """The side data attached to `frame`, each a SideData (its `.type`, its bytes)."""
    container = frame.side_data
    items = list(container)
    if items and not isinstance(items[0], SideData):  # the types, as a mapping's keys
        return [container[k] for k in items]
    return items
