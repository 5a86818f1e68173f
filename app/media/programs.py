"""The programs (channels) of an MPEG transport stream, read from its PAT and PMT tables:
which program each elementary stream (by PID, PyAV's `stream.id`) belongs to. A broadcast
recording can hold several channels; only the painted video's sound and subtitles go with it.
(PyAV does not expose FFmpeg's programs.)"""

from __future__ import annotations

from pathlib import Path

PACKET_SIZES = (188, 192, 204)  # plain TS, M2TS (4-byte time prefix), TS with FEC
SCAN_BYTES = 4 << 20  # the tables repeat every 100 ms or so: they come early


def ts_programs(path: str | Path, scan: int = SCAN_BYTES) -> dict[int, frozenset[int]]:
    """The program numbers each PID of a transport stream belongs to, from the tables in
    its first `scan` bytes; empty where the file is no transport stream or its tables are
    not found whole."""
    try:
        with open(path, "rb") as f:
            data = f.read(scan)
    except OSError:
        return {}
    size, offset = _layout(data)
    if not size:
        return {}
    pmts: dict[int, int] | None = None  # PMT PID -> program number, from the PAT
    programs: dict[int, set[int]] = {}
    done: set[int] = set()  # programs whose PMT was read
    sections: dict[int, bytearray] = {}  # PID -> a section being gathered
    for at in range(offset, len(data) - 187, size):
        packet = data[at:at + 188]
        if packet[0] != 0x47:
            continue
        pid = (packet[1] & 0x1F) << 8 | packet[2]
        if pid != 0 and (pmts is None or pid not in pmts):
            continue
        section = _gather(packet, sections.setdefault(pid, bytearray()))
        if section is None:
            continue
        sections[pid] = bytearray()
        if pid == 0 and section[0] == 0x00 and pmts is None:
            pmts = _pat(section)
        elif pmts is not None and section[0] == 0x02:
            number = int.from_bytes(section[3:5], "big")
            if number in pmts.values() and number not in done:
                done.add(number)
                for es in _pmt(section):
                    programs.setdefault(es, set()).add(number)
        if pmts is not None and done >= set(pmts.values()):
            return {pid: frozenset(p) for pid, p in programs.items()}
    return {}


def _layout(data: bytes) -> tuple[int, int]:
    """(packet size, offset of the first sync byte) where three packets in a row line up."""
    for size in PACKET_SIZES:
        for offset in (0, 4) if size == 192 else (0,):
            if len(data) >= offset + 2 * size + 1 and all(
                    data[offset + k * size] == 0x47 for k in range(3)):
                return size, offset
    return 0, 0


def _gather(packet: bytes, buffer: bytearray) -> bytes | None:
    """Add a packet's payload to a PSI section being gathered; the section once whole."""
    adaptation = packet[3] >> 4 & 3
    if not adaptation & 1:
        return None  # no payload
    at = 4 + (1 + packet[4] if adaptation & 2 else 0)
    payload = packet[at:]
    if packet[1] & 0x40:  # a section starts here, after its pointer field
        if not payload:
            return None
        buffer[:] = payload[1 + payload[0]:]
    elif buffer:
        buffer += payload
    else:
        return None
    if len(buffer) < 3:
        return None
    length = 3 + ((buffer[1] & 0x0F) << 8 | buffer[2])
    return bytes(buffer[:length]) if len(buffer) >= length else None


def _pat(section: bytes) -> dict[int, int]:
    """A PAT's PMT PIDs and their program numbers (program 0, the network table, left out)."""
    end = len(section) - 4  # (the CRC)
    out = {}
    for at in range(8, end - 3, 4):
        number = int.from_bytes(section[at:at + 2], "big")
        if number:
            out[(section[at + 2] & 0x1F) << 8 | section[at + 3]] = number
    return out


def _pmt(section: bytes) -> list[int]:
    """The elementary PIDs a PMT lists."""
    end = len(section) - 4
    at = 12 + ((section[10] & 0x0F) << 8 | section[11])
    pids = []
    while at + 5 <= end:
        pids.append((section[at + 1] & 0x1F) << 8 | section[at + 2])
        at += 5 + ((section[at + 3] & 0x0F) << 8 | section[at + 4])
    return pids


def other_programs(programs: dict[int, frozenset[int]], main: int, pids: list[int]
                   ) -> set[int]:
    """Of `pids`, those that belong to none of the programs of PID `main` (the painted
    video's); none where the file has a single program or `main` is in no table."""
    if len({p for ps in programs.values() for p in ps}) < 2 or main not in programs:
        return set()
    own = programs[main]
    return {pid for pid in pids if pid in programs and not programs[pid] & own}
