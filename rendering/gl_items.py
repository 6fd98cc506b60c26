"""GL items the scenes are made of: the lit shaders, bone meshes, ghosts and trails.

The draw-state overlay (:data:`OVERLAY`) and :data:`LIT_SHADER` are shared
by every item drawn with the bones (the gimbal rings, the rig).
"""

from __future__ import annotations

import pyqtgraph.opengl as gl
from OpenGL import GL
from pyqtgraph.opengl import shaders
from pyqtgraph.opengl.items.GLMeshItem import DirtyFlag as _Dirty

from quatlab.rendering.bone_mesh import BoneGeometry

__all__ = ["OVERLAY", "LIT_SHADER", "STRIPED_SHADER", "FLAT_LIT_SHADER", "GHOST_SHADER",
           "NoDepthWrite", "TrailItem", "BoneItem", "GhostItem"]

OVERLAY = {
    GL.GL_DEPTH_TEST: False,
    GL.GL_BLEND: True,
    GL.GL_CULL_FACE: False,
    "glBlendFuncSeparate": (GL.GL_SRC_ALPHA, GL.GL_ONE_MINUS_SRC_ALPHA,
                            GL.GL_ONE, GL.GL_ONE_MINUS_SRC_ALPHA),
}

# pyqtgraph's 'shaded' program lights from behind the camera's view
# direction (dot with (1, -1, -1) in eye space), so faces turned to the viewer
# get only the ambient term and look black. This one is a plain key + fill
# Lambert with a small Blinn highlight, all in eye space so the lighting
# follows the camera and a bone never turns fully dark while orbiting.
# GLSL ES 1.00 compatible: pyqtgraph prefixes "#version 100" on contexts with
# ARB_ES2_compatibility (Mesa), so the precision statement matters.
# Public because other items drawn with the bones (the gimbal rings) must be
# lit the same way. The light is one GLSL function shared by every program.
def _light(ambient: float, diffuse: float, specular: float) -> str:
    """The GLSL light: ``ambient + diffuse x (key + fill)`` times the colour, plus a highlight."""
    return f"""
    vec4 quatlab_light(vec3 n, vec4 color) {{
        vec3 key = normalize(vec3(-0.45, 0.65, 0.6));
        vec3 fill = normalize(vec3(0.6, -0.3, 0.5));
        float diffuse = 0.72 * max(dot(n, key), 0.0) + 0.22 * max(dot(n, fill), 0.0);
        vec3 h = normalize(key + vec3(0.0, 0.0, 1.0));
        float spec = {specular:.4f} * pow(max(dot(n, h), 0.0), 40.0);
        vec3 rgb = color.rgb * ({ambient:.4f} + {diffuse:.4f} * diffuse) + vec3(spec);
        return vec4(min(rgb, vec3(1.0)), color.a);
    }}
"""


_LIGHT = _light(0.34, 1.0, 0.22)
#: What both programs' vertex shaders take in, and the colour they pass on.
_VERTEX_INPUTS = """
        uniform mat4 u_mvp;
        uniform mat3 u_normal;
        attribute vec4 a_position;
        attribute vec3 a_normal;
        attribute vec4 a_color;
        varying vec4 v_color;
"""
_PRECISION = """
    #ifdef GL_ES
    precision mediump float;
    #endif
"""


def _per_pixel(name: str, light: str, discard: str = "") -> shaders.ShaderProgram:
    """A program lighting each pixel with ``light`` (smooth normals: balls, rings);
    ``discard`` is GLSL run first that may drop the pixel."""
    return shaders.ShaderProgram(name, [
        shaders.VertexShader(_VERTEX_INPUTS + """
            varying vec3 v_normal;
            void main() {
                v_normal = normalize(u_normal * a_normal);
                v_color = a_color;
                gl_Position = u_mvp * a_position;
            }
        """),
        shaders.FragmentShader(_PRECISION + """
            varying vec4 v_color;
            varying vec3 v_normal;
        """ + light + """
            void main() {
                """ + discard + """
                gl_FragColor = quatlab_light(normalize(v_normal), v_color);
            }
        """),
    ])


LIT_SHADER = _per_pixel("quatlab_lit", _LIGHT)
#: Width of a stripe of :data:`STRIPED_SHADER`, device pixels.
STRIPE_PX = 7.0
#: :data:`LIT_SHADER` drawing only every other diagonal stripe of the screen: a
#: chain in the same pose as another one (naive and shortest where dot >= 0,
#: every lesson at t = 0) is drawn with it, in front, so the two colours
#: alternate along the bones instead of z-fighting into a hatch where one
#: chain vanished.
STRIPED_SHADER = _per_pixel(
    "quatlab_striped", _LIGHT,
    f"if (mod(floor((gl_FragCoord.x + gl_FragCoord.y) / {STRIPE_PX:.1f}), 2.0) < 1.0) "
    "discard;")
#: :data:`LIT_SHADER` with a flatter light, for the translucent ghosts: the
#: same key, fill and highlight, but the shading spans 0.6-1.16 of the
#: colour instead of 0.34-1.28. A ghost's colour is chosen for its contrast
#: on the 3D background (:mod:`quatlab.rendering.themes`); with the full
#: light, its faces turned from the key light fell back towards the
#: background in the dark themes (a light grey darkened) and its lit faces
#: in light (a dark grey lightened). Still shaded enough to read as a solid.
GHOST_SHADER = _per_pixel("quatlab_ghost", _light(0.6, 0.6, 0.15))
#: :data:`LIT_SHADER`'s light evaluated per vertex instead of per pixel. On a
#: flat-shaded soup (one normal per face: the rig's meshes, the octahedral
#: bones) the three corners of a face get the same colour, so the picture is
#: the same, and the pixels, the bulk of the work of a software rasteriser
#: (llvmpipe), only copy a colour. Not for smooth normals (the balls, the rings).
FLAT_LIT_SHADER = shaders.ShaderProgram("quatlab_flat_lit", [
    shaders.VertexShader(_VERTEX_INPUTS + _LIGHT + """
        void main() {
            v_color = quatlab_light(normalize(u_normal * a_normal), a_color);
            gl_Position = u_mvp * a_position;
        }
    """),
    shaders.FragmentShader(_PRECISION + """
        varying vec4 v_color;
        void main() {
            gl_FragColor = v_color;
        }
    """),
])


class NoDepthWrite:
    """Mixin: depth-test the item but leave the depth buffer unwritten.

    For the translucent items drawn after the solid ones. An antialiased
    line writes depth even for its faint edge pixels, so the next segment of
    the same trail fails the depth test there and a dense trail comes out
    beaded; a ghost writing depth would hide the other ghost behind it.
    The mask is restored at once so the next item and the next frame's
    depth clear are unaffected.
    """

    def paint(self):
        GL.glDepthMask(GL.GL_FALSE)
        try:
            super().paint()
        finally:
            GL.glDepthMask(GL.GL_TRUE)


class TrailItem(NoDepthWrite, gl.GLLinePlotItem):
    pass


class BoneItem(gl.GLMeshItem):
    """A GLMeshItem drawing a prebuilt :class:`BoneGeometry` in one draw call.

    One item per bone instead of one per bone and ball keeps the per-item
    cost down (see the module docstring). Overrides ``parseMeshData`` of the
    pinned pyqtgraph 0.14, filling exactly the buffers it fills from a
    MeshData; the GL pixel tests fail loudly if that contract changes.
    """

    def __init__(self, geometry: BoneGeometry, **kwds):
        super().__init__(**kwds)
        self._geometry = geometry

    def set_geometry(self, geometry: BoneGeometry) -> None:
        """Replace the triangles (re-uploaded at the next paint)."""
        self._geometry = geometry
        self.meshDataChanged()

    def parseMeshData(self):
        if self.vertexes is not None:
            return _Dirty(0)
        g = self._geometry
        self.vertexes, self.normals, self.faces, self.colors = g.vertexes, g.normals, None, None
        dirty = _Dirty.POSITION | _Dirty.NORMAL
        if self.opts["drawEdges"]:
            self.edgeVerts, self.edges = g.edge_verts, g.edges
            dirty |= _Dirty.EDGE_VERTS | _Dirty.EDGES
        return dirty


class GhostItem(NoDepthWrite, BoneItem):
    pass
