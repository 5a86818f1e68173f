"""The only module that talks to Ray: connecting, the worker actors (one headless GL context
and pipeline each, on the GPU Ray assigned), and the job queue the driver feeds.

A worker that dies (its node removed, the process killed) loses the job it held: the driver
is told (`WorkerFailure(lost=True)`), runs the job again on another worker, and a
replacement worker is asked for; it gets work once Ray has placed it.
"""

from __future__ import annotations

import contextlib
import os
import socket
from collections.abc import Iterator
from typing import Any

import ray
from ray.exceptions import GetTimeoutError, RayActorError, RayError, RayTaskError

from ..engine.errors import AquarelleError
from .chunk import ChunkRenderer
from .driver import Job, LocalBackend, WorkerFailure
from .egl import create_context_for_gpus
from .reach import unreachable

PLACEMENT_TIMEOUT = 600.0  # seconds with jobs waiting and no worker alive or placed


def connect(address: str | None, *, num_cpus: int | None = None) -> bool:
    """Join the cluster at `address` (`ray://host:port`, `auto`, host:port), or start a
    local one (None). Returns whether this call started Ray (and should shut it down)."""
    if ray.is_initialized():
        return False
    kwargs: dict[str, Any] = {"include_dashboard": False, "log_to_driver": False,
                              "logging_level": "ERROR"}
    if address is None:
        kwargs["num_cpus"] = num_cpus
    else:
        kwargs = {"address": address, "log_to_driver": False, "logging_level": "ERROR"}
    try:
        ray.init(**kwargs)
    except (ConnectionError, RuntimeError, ValueError) as e:
        raise AquarelleError(unreachable(address, str(e) or type(e).__name__)) from None
    return True


def shutdown() -> None:
    ray.shutdown()


@ray.remote
class ChunkWorker:
    """One GL context and pipeline; renders chunks and summarizes motion."""

    def __init__(self) -> None:
        ids = [str(g) for g in ray.get_gpu_ids()]
        self._renderer: ChunkRenderer | None = None
        self._gpus = ids
        self._local = LocalBackend()

    def ready(self) -> str:
        return socket.gethostname() + ":" + str(os.getpid())

    def run(self, job: Job) -> Any:
        from .chunk import ChunkTask

        if isinstance(job, ChunkTask):
            if self._renderer is None:
                self._renderer = ChunkRenderer(create_context_for_gpus(self._gpus))
            result = self._renderer.render(job)
            result.node = ray.get_runtime_context().get_node_id()[:8]
            return result
        return self._local.execute(job)


def _cluster_gpus() -> int:
    return int(ray.cluster_resources().get("GPU", 0))


class RayBackend:
    """Jobs spread over a pool of ChunkWorker actors, one per GPU (or per CPU core without
    GPUs, `workers` to choose)."""

    def __init__(self, workers: int | None = None) -> None:
        gpus = _cluster_gpus()
        self._options: dict[str, Any] = ({"num_gpus": 1, "num_cpus": 1} if gpus else
                                         {"num_cpus": 1})
        count = workers or gpus or max(1, int(ray.cluster_resources().get("CPU", 1)))
        self.workers = count
        self._idle: list[Any] = []
        self._starting: dict[Any, Any] = {}  # ready ref -> actor
        self._running: dict[Any, tuple[Any, Job]] = {}  # result ref -> (actor, job)
        self._queue: list[Job] = []
        self.lost = 0  # workers that died
        for _ in range(count):
            self._spawn()

    def _spawn(self) -> None:
        actor = ChunkWorker.options(max_restarts=0, **self._options).remote()
        self._starting[actor.ready.remote()] = actor

    def submit(self, job: Job) -> None:
        self._queue.append(job)
        self._dispatch()

    def busy(self) -> bool:
        return bool(self._queue or self._running)

    def _dispatch(self) -> None:
        while self._queue and self._idle:
            actor = self._idle.pop()
            job = self._queue.pop(0)
            self._running[actor.run.remote(job)] = (actor, job)

    def completed(self) -> Iterator[tuple[Job, Any]]:
        waited = 0.0
        while True:
            refs = list(self._running) + list(self._starting)
            if not refs:
                if self._queue:
                    raise AquarelleError("no Ray worker is left to render on")
                return
            ready, _ = ray.wait(refs, num_returns=1, timeout=1.0)
            if not ready:
                waited = waited + 1.0 if not self._running and not self._idle else 0.0
                if waited > PLACEMENT_TIMEOUT:
                    raise AquarelleError("Ray placed no worker for 10 minutes (the cluster "
                                         "has no free CPU or GPU for one)")
                continue
            done: list[tuple[Job, Any]] = []
            for ref in ready:
                if ref in self._starting:
                    actor = self._starting.pop(ref)
                    try:
                        ray.get(ref)
                        self._idle.append(actor)
                    except RayError:
                        self.lost += 1  # never came up; do not wait for it
                    continue
                actor, job = self._running.pop(ref)
                try:
                    done.append((job, ray.get(ref, timeout=5)))
                    self._idle.append(actor)
                except RayActorError as e:
                    self.lost += 1
                    self._spawn()
                    done.append((job, WorkerFailure(f"worker lost ({_first_line(e)})", True)))
                except RayTaskError as e:
                    self._idle.append(actor)
                    cause = e.cause if getattr(e, "cause", None) is not None else e
                    done.append((job, WorkerFailure(_first_line(cause))))
                except (RayError, GetTimeoutError) as e:
                    self.lost += 1
                    self._spawn()
                    done.append((job, WorkerFailure(f"worker lost ({_first_line(e)})", True)))
            self._dispatch()
            if done:
                yield from done
                return

    def close(self) -> None:
        for actor in [*self._idle, *self._starting.values(),
                      *(a for a, _ in self._running.values())]:
            with contextlib.suppress(Exception):  # already gone
                ray.kill(actor)
        self._idle.clear()
        self._starting.clear()
        self._running.clear()


def _first_line(e: BaseException) -> str:
    text = str(e).strip()
    return text.splitlines()[0] if text else type(e).__name__
