"""PaintingRecord (ui/painting_record.py): whether the frames a window painted since the last
cut are what an export paints, so that a file paused on one painted otherwise is painted
again as a seek to it."""

from __future__ import annotations

from aquarelle.ui.painting_record import FramePainting, PaintingRecord

LOOK = ("watercolor", {"dilution": 0.5}, 0, 1.0, 1080)


def frame(*, look: tuple = LOOK, full: bool = True, followed: bool = True, own: bool = False,
          bare: bool = True) -> FramePainting:
    """A frame as a playing file paints it: another frame's subject, one with no face."""
    return FramePainting(look, full, followed, own, bare)


def played(*frames: FramePainting) -> PaintingRecord:
    record = PaintingRecord()
    for f in frames:
        record.painted(f)
    return record


def test_frames_played_in_a_row_at_full_scale_are_the_export() -> None:
    record = played(frame(), frame(), frame())
    assert record.painted_as_export() and record.follows_export()


def test_a_skip_or_a_draft_anywhere_since_the_cut_is_a_deviation_until_the_next_cut() -> None:
    for odd in (frame(followed=False), frame(full=False)):
        for record in (played(frame(), odd, frame()), played(frame(), odd)):
            assert not record.painted_as_export() and not record.follows_export()
        record.cut()
        record.painted(frame())
        assert record.painted_as_export() and record.follows_export()


def test_a_face_found_late_deviates_before_the_frame_on_screen_but_not_on_it() -> None:
    late = frame(bare=False)
    # on the frame on screen only: painted again with its own face once found (settle)
    record = played(frame(own=True, bare=False), late)
    assert record.painted_as_export() and not record.follows_export()
    record.painted_again(frame(own=True, bare=False))
    assert record.follows_export()
    # on a frame before it: the history itself is not the export's
    assert not played(late, frame(own=True, bare=False)).painted_as_export()


def test_a_face_after_frames_painted_with_another_frames_bare_subject_deviates() -> None:
    """Those frames' own subjects may have held the face: told only by it found later."""
    faceless = played(frame(), frame(), frame())
    assert faceless.painted_as_export()
    record = played(frame(), frame(), frame(own=True, bare=False))
    assert not record.painted_as_export()
    record = played(frame(), frame())
    record.painted_again(frame(own=True, bare=False))  # its own found: a face
    assert not record.painted_as_export()
    # every frame with its own subject: the faces are the export's
    assert played(frame(own=True), frame(own=True), frame(own=True, bare=False)) \
        .painted_as_export()


def test_values_changed_on_the_frame_on_screen_are_kept_but_not_followed() -> None:
    record = played(frame(), frame())
    record.painted_again(frame(look=("watercolor", {"dilution": 0.9}, 0, 1.0, 1080)))
    assert record.painted_as_export()  # painted anew on the history it read
    assert not record.follows_export()  # a step on from it is painted as a seek
    first = played(frame())
    first.painted_again(frame(look=("watercolor", {"dilution": 0.9}, 0, 1.0, 1080)))
    assert first.follows_export()  # no history: the frame alone


def test_a_draft_painted_again_at_full_scale_stays_a_deviation() -> None:
    record = played(frame(), frame(full=False))
    record.painted_again(frame())
    assert not record.painted_as_export()
