"""The stereographic panel's camera: which way it looks and how far, in the view's pixels.

Qt-free numpy: :func:`view_direction` looks at the S3 paths' images face-on,
:func:`fit_camera` frames points in a view of a given size (pyqtgraph's
perspective: horizontal field of view, the vertical one from the aspect).
"""

from __future__ import annotations

import numpy as np

__all__ = ["view_direction", "fit_camera"]

#: The camera looks at the paths' plane face-on, tilted this much towards the
#: default view so the picture keeps some depth.
_TILT = 0.3
_DEFAULT_DIRECTION = np.array([np.cos(np.radians(22)) * np.cos(np.radians(-55)),
                               np.cos(np.radians(22)) * np.sin(np.radians(-55)),
                               np.sin(np.radians(22))])


def view_direction(points: np.ndarray) -> tuple[float, float]:
    """Camera ``(elevation_deg, azimuth_deg)`` looking at ``points`` (N, 3) face-on.

    The view direction is the normal of the plane the points lie in (the
    image of a great circle is a circle or a line), tilted by :data:`_TILT`
    towards the default view: a circle is seen round, not foreshortened into
    a line. For points on a line any direction across it will do; the
    default one, with the line's direction removed, is taken. Non-finite
    rows are left out.
    """
    pts = np.asarray(points, float)
    pts = pts[np.all(np.isfinite(pts), axis=-1)]
    d = _DEFAULT_DIRECTION
    if len(pts) >= 3:
        _, sv, vt = np.linalg.svd(pts - pts.mean(axis=0), full_matrices=False)
        if sv[1] > 0.05 * sv[0]:
            n = vt[2]
        else:
            n = d - (d @ vt[0]) * vt[0]
        n = n / np.linalg.norm(n)
        if n @ d < 0:
            n = -n
        d = n + _TILT * d
        d = d / np.linalg.norm(d)
    elevation = float(np.degrees(np.arcsin(np.clip(d[2], -1.0, 1.0))))
    azimuth = float(np.degrees(np.arctan2(d[1], d[0])))
    return elevation, azimuth


def fit_camera(points: np.ndarray, rotation: np.ndarray, size: tuple[float, float],
               margin: float, fov_deg: float = 60.0) -> tuple[np.ndarray, float]:
    """Camera ``(centre, distance)`` that shows every one of ``points`` (N, 3), ``margin`` px in.

    ``rotation`` (3, 3) turns world into camera axes (rows: right, up,
    towards the viewer); ``size`` is the view's (width, height) in pixels and
    ``fov_deg`` its horizontal field of view (pyqtgraph's convention; the
    vertical one follows from the aspect). The centre is the middle of the
    points' extent across and along the view; the distance is the least at
    which each point's perspective image lies inside the view shrunk by
    ``margin`` on every side (exact: a point ``x`` across and ``z`` along the
    view from the centre projects inside when ``|x| <= (D - z) tan(fov/2) a``).
    """
    pts = np.asarray(points, float)
    pts = pts[np.all(np.isfinite(pts), axis=-1)]
    cam = pts @ rotation.T
    mid = 0.5 * (cam.min(axis=0) + cam.max(axis=0))
    centre = mid @ rotation
    x, y, z = (cam - mid).T
    w, h = (max(float(v), 1.0) for v in size)
    tan = np.tan(np.radians(fov_deg) / 2)
    ax = max(1.0 - 2.0 * margin / w, 0.1)
    ay = max(1.0 - 2.0 * margin / h, 0.1)
    need = np.maximum(z + np.abs(x) / (tan * ax), z + np.abs(y) / (tan * (h / w) * ay))
    return centre, float(max(need.max(), 1e-3))
