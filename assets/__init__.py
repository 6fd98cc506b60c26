"""Packaged data: presets and sample keyframe files, read with importlib.resources."""
