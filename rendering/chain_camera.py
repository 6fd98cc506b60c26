"""The camera of the lesson's 3D view: the default view fitted to what the chains do.

:class:`ChainCamera` is the camera-fitting part of
:class:`quatlab.rendering.chain_scene.ChainScene` (a mixin); the fit itself
is :func:`quatlab.rendering.scene_marks.fit_view`.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from math import atan, ceil, cos, radians, sin, tan

import numpy as np
from PyQt6 import QtGui

from quatlab.rendering.chain import ROOT, chain_frames, marker_trail
from quatlab.rendering.chain_items import GIZMO_LENGTH
from quatlab.rendering.chain_labels import _NOTE_BAND
from quatlab.rendering.scene_marks import fit_view

__all__ = ["ChainCamera", "DEFAULT_CAMERA"]

#: Default camera: oblique, from the front right and a little above, so the
#: rest pose (along +X) runs left to right and a turn about Z shows as an
#: ellipse rather than a line.
DEFAULT_CAMERA = {"elevation": 28.0, "azimuth": -60.0, "fov": 45.0}

_FIT_MARGIN = 1.03               # breathing room around the fully reached sphere
_FIT_PAD = 0.12                  # ball radius around fitted points, root bone lengths
_FIT_SAMPLES = 41                # path samples the camera fit looks at
#: Share of the view's width (and of its height) kept free on each side for the
#: labels: a chain framed to the edge had its name pushed to the far side; 8 %
#: left the SQUAD row filling 56 % of the view (docs/projector.md).
_LABEL_MARGIN = 0.04
#: Least radius of a turn arc on screen, pixels at 100 % (View > Zoom scales it):
#: an arc of a fixed world size was a few pixels across in a wide framing.
TURN_ARC_PX = 34.0
#: Foreshortening from which a chain counts as seen, not end-on (_view_score):
#: a chain turning about the vertical points at the camera at some pose from
#: every side, foreshortened to sin(elevation); at 0.6 the penalty lifted the
#: two-key lesson's camera to 40°, where the eye-space light leaves the bones'
#: faces turned to the viewer dark and the lit chains read fainter than the
#: ghosts (docs/projector.md).
END_ON_SEEN = 0.35
_AUTO_ELEVATIONS = (18.0, 28.0, 40.0)          # degrees, set_auto_direction's candidates
_AUTO_AZIMUTHS = (-30.0, -45.0, -60.0, -75.0, -90.0, -105.0, -120.0)
#: Room between neighbours laid out side by side (:meth:`ChainCamera.set_row`), root bone
#: lengths: a chain's label goes beside it there, clear of the next chain.
_ROW_GAP = 0.6


class ChainCamera:
    """Camera fit of :class:`~quatlab.rendering.chain_scene.ChainScene` (a mixin)."""

    _framing_depth = 0     # open one_framing() blocks
    _framing_due = False   # a fit asked for inside them
    _row: tuple[str, ...] = ()   # chains laid out by the fit (set_row)
    _row_most = 1

    @contextmanager
    def one_framing(self) -> Iterator[None]:
        """Fit the camera once, on leaving the block, however often it is asked to inside.

        A view that sets several chains' roots and framed poses in one change
        (the blend lesson: seven) fitted the camera after each, about 3 ms a
        fit, a fifth of its preset change (docs/architecture.md).
        """
        self._framing_depth += 1
        try:
            yield
        finally:
            self._framing_depth -= 1
            if self._framing_depth == 0 and self._framing_due:
                self._framing_due = False
                self.reset_camera()

    def reset_camera(self) -> None:
        """Oblique default view framing what the chains do, as large as it fits.

        What must fit: every chain that has a path (:meth:`set_path`), at
        every pose along it, the ghosts, the turn marks and every other body
        the lesson draws (:meth:`set_framed_body`); a chain without a path is taken
        at its largest reach, the sphere of its straight length about its
        root. The camera looks at the middle of all that from the default
        direction and backs off until each point, padded by a bone's
        thickness, lies inside both fields of view of the current widget
        shape. A lesson whose chains sweep a small arc therefore fills the
        view instead of leaving it to the grid. Chains laid out by the fit
        (:meth:`set_row`) are placed for each direction tried, in one row or
        more. Inside :meth:`one_framing`, the fit waits for the end of the block.
        """
        if self._framing_depth:
            self._framing_due = True
            return
        centres, radii, owners = self._fit_balls()
        cam = self._camera_defaults
        fov = cam["fov"]
        w, h = max(self.width(), 1), max(self.height(), 1)
        full_x = radians(fov) / 2
        full_y = atan(tan(full_x) * h / w)
        # Fit the content into the width and height less a margin for the
        # labels, and less a band at each end (the notes go in the bottom
        # one), so it stays centred.
        keep = 1.0 - 2.0 * _LABEL_MARGIN
        half_x = atan(tan(full_x) * keep)
        half_y = atan(tan(full_y) * max(keep * h - 2 * _NOTE_BAND, 0.5 * h) / h)
        directions = [(cam["elevation"], cam["azimuth"])]
        spans = None
        if self._auto_direction:
            directions += [(e, a) for e in _AUTO_ELEVATIONS for a in _AUTO_AZIMUTHS]
            spans = self._chain_spans()
        # Each ball as an offset from its chain's root (a body of no chain, owner -1:
        # from 0), so a row's layout (set_row) moves them with the roots it tries.
        offsets = centres - self._owner_roots({}, owners)
        index = {k: i for i, k in enumerate(self._chains)}
        row = [(k, offsets[owners == index[k]], radii[owners == index[k]])
               for k in self._row if k in index]
        best = None
        for elevation, azimuth in directions:
            for roots in self._row_layouts(row, elevation, azimuth) if row else ({},):
                placed = offsets + self._owner_roots(roots, owners)
                center, distance, back = fit_view(placed, radii, elevation, azimuth,
                                                  half_x, half_y)
                distance *= _FIT_MARGIN
                score = self._view_score(distance, back, spans, lengthwise=bool(row))
                if best is None or score > best[0]:
                    best = (score, center, distance, elevation, azimuth, roots, placed)
        _score, center, distance, elevation, azimuth, roots, centres = best
        self._move_roots(roots)
        self.setCameraParams(center=QtGui.QVector3D(*center), distance=distance,
                             elevation=elevation, azimuth=azimuth, fov=fov)
        self._camera_touched = False
        # World length of a pixel at the framed distance: turn arcs are sized
        # in pixels from it (ChainTurns), once per framing, not per t.
        self._world_per_px = 2.0 * distance * tan(full_y) / h
        self._fit_grid(centres, radii)
        for chain in self._chains.values():
            self._pose_turn(chain)

    def reframe(self) -> None:
        """Fit the camera again (:meth:`reset_camera`) unless the user has moved it.

        For a lesson whose paths changed by an edit and whose chains are laid out
        by them (:meth:`set_row`): a chain that now goes the long way round would
        reach into its neighbour's room.
        """
        if not self._camera_touched:
            self.reset_camera()

    def _owner_roots(self, roots: dict, owners: np.ndarray) -> np.ndarray:
        """Each ball's root: its chain's in ``roots``, else the chain's own; 0 for owner -1."""
        at = [roots.get(k, c.root) for k, c in self._chains.items()]
        return np.vstack([*at, np.zeros(3)])[owners]

    def set_row(self, keys, most_rows: int = 2) -> None:
        """Lay chains ``keys`` out side by side across the view, in up to ``most_rows`` rows.

        :meth:`reset_camera` then places their roots itself, in order, left to
        right and the rows back to front (the first keys at the back, higher on
        the screen), each chain :data:`_ROW_GAP` clear of the next by what it
        sweeps (its path, seen from the camera's direction), not by the whole
        sphere of its reach; of one row, two, ... it keeps the layout that
        frames them largest. With :meth:`set_auto_direction`, the direction is
        the one that shows the chains longest on the screen (_view_score).
        Six chains 5.5 m apart in one row were framed across a 790x332 view
        and 40-60 px tall (docs/projector.md). Roots given to
        :meth:`set_chain` are overridden at each framing.
        """
        self._row = tuple(keys)
        self._row_most = max(int(most_rows), 1)
        if not self._camera_touched:
            self.reset_camera()

    def _row_layouts(self, row: list, elevation: float, azimuth: float) -> list[dict]:
        """Roots of the row's chains in one row, two, ... across the view from one direction.

        ``row``: ``(key, centres, radii)`` of each chain's fitted balls, centres
        relative to its root. Neighbours in a row stand :data:`_ROW_GAP` apart
        along the screen's right as seen (orthographically) from ``elevation`` /
        ``azimuth``, each row centred; a row stands behind the next, far enough
        on the ground that its lowest point on the screen clears the next one's
        highest by the same gap.
        """
        elev, azim = radians(elevation), radians(azimuth)
        right = np.array([-sin(azim), cos(azim), 0.0])
        ahead = np.array([cos(azim), sin(azim), 0.0])   # on the ground, towards the camera
        # Screen up: cross(towards the camera, right).
        up = np.array([-sin(elev) * cos(azim), -sin(elev) * sin(azim), cos(elev)])
        gap = _ROW_GAP * self._lengths[0]
        along, high = {}, {}
        for key, centres, radii in row:
            if not len(centres):
                along[key] = high[key] = (0.0, 0.0)
                continue
            p = centres @ np.column_stack([right, up])
            lo, hi = (p - radii[:, None]).min(axis=0), (p + radii[:, None]).max(axis=0)
            along[key], high[key] = (lo[0], hi[0]), (lo[1], hi[1])
        keys = [key for key, _c, _r in row]
        layouts = []
        for rows in range(1, min(self._row_most, len(keys)) + 1):
            per_row = ceil(len(keys) / rows)
            roots, depth, below = {}, 0.0, None
            for start in range(0, len(keys), per_row):
                line = keys[start:start + per_row]
                x, placed = 0.0, {}
                for key in line:
                    placed[key] = x - along[key][0]
                    x = placed[key] + along[key][1] + gap
                middle = (x - gap) / 2   # the row runs from 0 (its first chain's left)
                top = max(high[k][1] for k in line)
                if below is not None:
                    # Towards the camera moves a point down the screen by sin(elevation).
                    depth += max(top - below + gap, 0.0) / max(sin(elev), 0.1)
                below = min(high[k][0] for k in line)
                for key in line:
                    roots[key] = right * (placed[key] - middle) + ahead * depth
            layouts.append({k: ROOT + r - ahead * (depth / 2) for k, r in roots.items()})
        return layouts

    def _move_roots(self, roots: dict) -> None:
        """Hang the chains of ``roots`` there (their trails and poses with them)."""
        for key, root in roots.items():
            chain = self._chains[key]
            # Worked out again from where the balls were: equal but for rounding.
            if np.allclose(root, chain.root, rtol=0.0, atol=1e-9):
                continue
            chain.root = root
            if chain.path is not None:
                self.set_path(key, chain.path)
            self._pose(chain, chain.q)

    def _fit_grid(self, centres: np.ndarray, radii: np.ndarray) -> None:
        """Size and centre the ground grid under everything framed (chains side by side
        5.5 m apart stood off an 8 m grid)."""
        grid = getattr(self, "_grid", None)
        if grid is None:
            return
        lo = (centres[:, :2] - radii[:, None]).min(axis=0)
        hi = (centres[:, :2] + radii[:, None]).max(axis=0)
        step = self._grid_spacing
        mid = np.round((lo + hi) / 2 / step) * step
        half = np.maximum(np.ceil(np.max(np.abs(np.vstack([lo, hi]) - mid), axis=0) / step) + 1,
                          self._grid_least / 2 / step) * step
        grid.setSize(2 * half[0], 2 * half[1], 1)
        grid.resetTransform()
        grid.translate(float(mid[0]), float(mid[1]), 0.0)

    def _view_score(self, distance: float, back: np.ndarray,
                    spans: np.ndarray | None = None, lengthwise: bool = False) -> float:
        """How well a view shows the scene: large, no trail seen edge-on, no chain end-on.

        The fitted size (1 / distance) counts most; a direction that sees the
        plane of a trail within ~30° of edge-on loses up to 40 %, because the
        ticks and arrows of that trail would collapse into a line; one that
        sees a chain nearly end-on at some pose of its sweep (``spans``, root
        to tip) loses up to 70 %: the large-170 chain pointed at the camera
        at t = 0.5 and was a dot. A chain seen at END_ON_SEEN of its length
        or more is not end-on (see there).
        """
        facing = 1.0
        for chain in self._chains.values():
            if chain.plane is not None:
                facing = min(facing, abs(float(chain.plane @ back)))
        score = (0.6 + 0.4 * min(1.0, facing / 0.5)) / distance
        if spans is not None and len(spans):
            across = np.linalg.norm(spans - np.outer(spans @ back, back), axis=1)
            shares = across / np.linalg.norm(spans, axis=1)
            score *= 0.3 + 0.7 * min(1.0, float(np.min(shares)) / END_ON_SEEN)
            if lengthwise:
                # Chains laid out by what they sweep on the screen (set_row) pack
                # closer the more the camera looks along them: the size that
                # counts is then the chains' length on the screen, not the
                # framing's, or the row of the 20° wrap was framed large with
                # each chain seen at a slant, 23 px long in a 332-px view.
                score *= float(np.mean(shares))
        return score

    def _chain_spans(self) -> np.ndarray:
        """Root-to-tip vectors of every chain at its sampled poses (for _view_score)."""
        spans = []
        for chain in self._chains.values():
            path = chain.framed if chain.framed is not None else chain.path
            if path is None:
                continue
            path = path[np.all(np.isfinite(path), axis=-1)]
            if not len(path):
                continue
            path = path[np.linspace(0, len(path) - 1, min(_FIT_SAMPLES, len(path))).astype(int)]
            joints, _frames = chain_frames(path, self._n_bones, self._bone_length,
                                           root_only=self._root_only)
            spans.append(joints[:, -1] - joints[:, 0])
        spans = np.vstack(spans) if spans else np.empty((0, 3))
        return spans[np.linalg.norm(spans, axis=1) > 1e-9]

    def set_auto_direction(self, auto: bool) -> None:
        """Let :meth:`reset_camera` pick the side it looks from, to show the paths best.

        Off by default: a lesson that lays its chains out for one side keeps
        :data:`DEFAULT_CAMERA` or :meth:`set_default_direction`. On, the
        camera tries a few elevations and azimuths around the front and keeps
        the one that frames the bodies largest without looking along the
        plane of a trail (a turn about the bone axis seen edge-on is a line).
        """
        self._auto_direction = bool(auto)
        if not self._camera_touched:
            self.reset_camera()

    def _fit_balls(self) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """Centres and radii of the balls :meth:`reset_camera` fits into the view, and owners.

        ``owners``: for each ball the index of the chain it belongs to (of
        ``self._chains``; -1: the ghosts, a body), which moves with its root.
        """
        pad = _FIT_PAD * self._lengths[0]
        # The joints' gizmos stick out this far: a joint at the edge of the
        # fit had its axes cut by the frame (q to -q at t = 0.5).
        joint_pad = max(pad, GIZMO_LENGTH * self._lengths[0])
        # Farthest any point of the chain gets from its root: the straight
        # chain's tip with the hand on it, and a bone's thickness around that.
        reach = float(np.hypot(self._reach, self._hand)) + pad
        centres, radii, owners = [], [], []
        chains = list(self._chains.values())
        for i, chain in enumerate(chains):
            if chain.framed is not None:
                path = chain.framed  # every pose the caller named, none skipped
            elif chain.path is None or not np.any(np.isfinite(chain.path)):
                centres.append(chain.root[None])
                radii.append(np.array([reach]))
                owners.append(np.full(1, i))
                continue
            else:
                path = chain.path[np.all(np.isfinite(chain.path), axis=-1)]
                path = path[np.linspace(0, len(path) - 1,
                                        min(_FIT_SAMPLES, len(path))).astype(int)]
            if not len(path):
                continue
            joints, _frames = chain_frames(path, self._n_bones, self._bone_length,
                                     root_only=self._root_only)
            marker = marker_trail(path, self._n_bones, self._bone_length,
                                  root_only=self._root_only)
            joints = joints.reshape(-1, 3)
            pts = np.vstack([joints, marker]) + (chain.root - ROOT)
            centres.append(pts)
            radii.append(np.r_[np.full(len(joints), joint_pad), np.full(len(marker), pad)])
            owners.append(np.full(len(pts), i))
        for positions in self._ghost_points:
            centres.append(positions)
            radii.append(np.full(len(positions), pad))
            owners.append(np.full(len(positions), -1))
        if self._turn_reference is not None:
            # The turn axes and arcs at the roots, as _pose_turn draws them
            # at the end of the path, where the arc is longest.
            for i, chain in enumerate(chains):
                if chain.turn_axis is None:
                    continue
                pts = self._turn_verts(chain, chain.turn_axis, self._path_turn(chain),
                                       on_screen=False)
                centres.append(pts)
                radii.append(np.full(len(pts), 0.05 * self._lengths[0]))
                owners.append(np.full(len(pts), i))
        for points, body_radii in self._bodies.values():
            centres.append(points)
            radii.append(body_radii)
            owners.append(np.full(len(points), -1))
        if not centres:
            return ROOT[None].copy(), np.array([reach]), np.full(1, -1)
        return np.vstack(centres), np.concatenate(radii), np.concatenate(owners)

    def set_framed_poses(self, key: str, poses) -> None:
        """Have :meth:`reset_camera` frame chain ``key`` at each of ``poses`` (None: no more).

        For a chain that draws no path but can only take some rotations (a
        blend of given poses): ``poses`` ``(K, 4)``, local rotations as for
        :meth:`set_chain`, NaN rows skipped, every one fitted (not sampled
        as a path is). Without them the fit takes the chain's path, or the
        whole sphere of its reach. The view re-frames unless the user moved
        the camera.
        """
        chain = self._chain(key)
        if poses is None:
            chain.framed = None
        else:
            poses = np.array(poses, dtype=np.float64).reshape(-1, 4)
            chain.framed = poses[np.all(np.isfinite(poses), axis=-1)]
        if not self._camera_touched:
            self.reset_camera()

    def set_framed_body(self, key: str, points, radius) -> None:
        """Have :meth:`reset_camera` frame another body drawn in the view (None: no more).

        For items the lesson adds beside the chains (the Euler lesson's
        gimbal): ``points`` ``(N, 3)`` in world space, every place the body
        reaches over the lesson's range (not only now, so the camera does not
        move with t), each padded by ``radius`` (a number or ``(N,)``). The
        view re-frames unless the user moved the camera.
        """
        if points is None:
            if self._bodies.pop(key, None) is None:
                return
        else:
            points = np.array(points, dtype=np.float64).reshape(-1, 3)
            points = points[np.all(np.isfinite(points), axis=-1)]
            radii = np.broadcast_to(np.asarray(radius, dtype=np.float64), (len(points),))
            self._bodies[key] = (points, radii.copy())
        if not self._camera_touched:
            self.reset_camera()

    def set_default_direction(self, elevation: float, azimuth: float) -> None:
        """Look from ``elevation`` / ``azimuth`` (degrees) on :meth:`reset_camera`, and now.

        For a lesson whose chains are laid out differently (side by side
        along Y instead of on one root) and read better from another side
        than :data:`DEFAULT_CAMERA`'s; the fit to the reach is unchanged.
        """
        self._camera_defaults.update(elevation=float(elevation), azimuth=float(azimuth))
        self.reset_camera()

    def resizeEvent(self, ev):
        super().resizeEvent(ev)
        self._stack_notes()
        # Until the user moves the camera, keep the default view fitted to
        # the widget's current shape (the first show happens after __init__).
        if not self._camera_touched:
            self.reset_camera()

    def mousePressEvent(self, ev):
        self._camera_touched = True
        super().mousePressEvent(ev)
