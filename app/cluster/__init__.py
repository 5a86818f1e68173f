"""Rendering long videos and whole folders on a Ray cluster, frame-exact and coherent.

A video is cut into chunks at keyframes (`plan`); a cheap motion-only first phase gives every
chunk the paper's position it would have reached in one long render (`canvas`); each chunk is
rendered after K warm-up frames and encoded on its own (`chunk`); the chunks are checked
against the source, recorded in a manifest (`manifest`) and joined without re-encoding, with
the source's sound, into the output written atomically (`join`). `driver` schedules it all on
a backend; `ray_backend` is the only module that imports Ray.
"""
