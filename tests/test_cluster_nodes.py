"""A simulated two-node Ray cluster: a node removed mid-run still gives a complete, correct
file (its chunk runs again on the node that is left)."""

from __future__ import annotations

import threading

import numpy as np
import pytest
from cluster_clips import keyframe_clip
from videoclips import decode_video

from aquarelle.cluster.driver import ClusterOptions, Driver, FileJob
from aquarelle.engine.chain_spec import load_chain, param_set
from aquarelle.media.export import ExportOptions, export_video

ray = pytest.importorskip("ray")


@pytest.fixture(scope="module")
def two_nodes():
    from ray.cluster_utils import Cluster

    c = Cluster(initialize_head=True, head_node_args={"num_cpus": 1})
    worker = c.add_node(num_cpus=1)
    ray.init(address=c.address, log_to_driver=False, logging_level="ERROR")
    c.wait_for_nodes()
    yield c, worker
    ray.shutdown()
    c.shutdown()


def test_a_node_removed_mid_run_still_gives_a_complete_file(two_nodes, tmp_path, gl_ctx):
    from aquarelle.cluster.ray_backend import RayBackend

    cluster, worker = two_nodes
    clip = keyframe_clip(tmp_path / "in.mp4", frames=90, gop=6)
    spec = load_chain("watercolor")
    started = threading.Event()
    backend = RayBackend(workers=2)
    driver = Driver(backend, "watercolor", spec, param_set(spec).values(),
                    ClusterOptions(chunk_seconds=0.2),
                    progress=lambda p: started.set())
    outcome = []
    t = threading.Thread(target=lambda: outcome.extend(driver.run(
        [FileJob(clip.path, tmp_path / "out.mp4", "mp4", "h264", ExportOptions(crf=1))])))
    t.start()
    assert started.wait(120)  # a first chunk is in
    cluster.remove_node(worker)
    t.join(180)
    backend.close()
    assert not t.is_alive()
    (out,) = outcome
    assert out.error is None and out.chunks >= 6
    assert backend.lost >= 1  # the removed node's worker died, its chunk ran again
    export_video(clip.path, tmp_path / "ref.mp4", "watercolor", None, ExportOptions(crf=1),
                 ctx=gl_ctx)
    frames, times, facts = decode_video(tmp_path / "out.mp4")
    rf, rt, rfacts = decode_video(tmp_path / "ref.mp4")
    assert len(frames) == 90 and times == rt and facts["audio"] == rfacts["audio"]
    d = [float(np.abs(a.astype(np.int16) - b.astype(np.int16)).mean())
         for a, b in zip(frames, rf, strict=True)]
    assert np.median(d) <= 1.5 and max(d) <= 4.0
