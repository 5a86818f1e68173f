"""Aquarelle: real-time watercolor stylization of images, video and webcams on the GPU."""

__version__ = "0.1.0"
