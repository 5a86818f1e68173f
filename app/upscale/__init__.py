"""Learned x2 upscaling (RAISR/RAVU-style hashed filters): training and a numpy reference.

The GPU applies the filters (style `upscale`, shaders/upscale/); this package learns them
offline (scripts/train_upscaler.py) and holds the numpy twin the tests compare with.
"""
