"""What `render --cluster` says when Ray cannot connect. Ray's own words name Ray's options
(`--address`, RAY_ADDRESS, `pip install ray[client]`), which aquarelle does not have: the
known ones are said in aquarelle's terms, others passed on in their first line. No Ray here."""

from __future__ import annotations

from ..diagnostics import CLUSTER_INSTALL


def unreachable(address: str | None, error: str) -> str:
    """One line for Ray's connection error `error` (its message) at `address` (None: the
    local Ray that --cluster alone starts)."""
    first = error.strip().splitlines()[0] if error.strip() else "no reason given"
    where = address or "a local Ray instance"
    if "requires pip package `ray[client]`" in error:
        return (f"--cluster {address} needs Ray Client, which is not installed: "
                f"{CLUSTER_INSTALL}")
    if "Could not find any running Ray instance" in error:
        return (f"--cluster {address}: no Ray cluster is running on this machine; start one "
                f"(ray start --head), give a cluster's address (--cluster ray://HOST:10001), "
                f"or use --cluster alone for a local one")
    if "Found multiple active Ray instances" in error:
        found = first.split(": ", 1)[1].split(". ", 1)[0] if ": " in first else "several"
        return (f"--cluster {address}: several Ray clusters run on this machine ({found}); "
                f"name one: --cluster HOST:PORT")
    if "ray client connection timeout" in error.lower():
        return (f"--cluster {address}: no Ray Client server answered (is the cluster's head "
                f"running, with its client port, usually 10001, reachable from here?)")
    return f"cannot reach the Ray cluster at {where}: {first}"
