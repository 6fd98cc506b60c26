"""The rig's meshes in their own colours: base colour factors per vertex and base colour textures.

:class:`TexturedSoupItem` draws a flat-shaded triangle soup as
:class:`~quatlab.rendering.gl_items.BoneItem` does (positions and normals
replaced per frame), with two more per-vertex arrays that do not change with
the pose: the material's base colour and the texture coordinates. The soup
is drawn in a few ranges, one per run of triangles sharing a texture, each
with its texture bound (a white texel where a material has none). The light
is the flat-lit shader's (:data:`~quatlab.rendering.gl_items.FLAT_LIT_SHADER`),
evaluated per vertex and multiplied by the texel.

Colours: glTF's ``baseColorFactor`` is linear; it is turned into sRGB here,
and textures are sRGB already, so their product (computed in sRGB, which a
power-law transfer leaves nearly unchanged) is what a viewer shows unlit.
:func:`soup_colours` builds the static arrays for a list of meshes in the
order :class:`~quatlab.rendering.rig_meshes.MeshSoups` lays its soup out.
"""

from __future__ import annotations

import numpy as np
from OpenGL import GL
from PyQt6 import QtGui, QtOpenGL
from pyqtgraph.opengl import shaders

from quatlab.rendering.gl_items import _LIGHT, _PRECISION, _VERTEX_INPUTS, BoneItem
from quatlab.rendering.style import rgba

__all__ = ["TEXTURED_LIT_SHADER", "TexturedSoupItem", "SoupColours", "soup_colours",
           "linear_to_srgb"]

TEXTURED_LIT_SHADER = shaders.ShaderProgram("quatlab_textured_lit", [
    shaders.VertexShader(_VERTEX_INPUTS + _LIGHT + """
        attribute vec2 a_uv;
        varying vec2 v_uv;
        void main() {
            v_color = quatlab_light(normalize(u_normal * a_normal), a_color);
            v_uv = a_uv;
            gl_Position = u_mvp * a_position;
        }
    """),
    shaders.FragmentShader(_PRECISION + """
        uniform sampler2D u_texture;
        varying vec4 v_color;
        varying vec2 v_uv;
        void main() {
            vec4 texel = texture2D(u_texture, v_uv);
            gl_FragColor = vec4(v_color.rgb * texel.rgb, 1.0);
        }
    """),
])

_WRAP = {10497: GL.GL_REPEAT, 33071: GL.GL_CLAMP_TO_EDGE, 33648: GL.GL_MIRRORED_REPEAT}


def linear_to_srgb(c: np.ndarray) -> np.ndarray:
    """Linear colour components in [0, 1] encoded as sRGB (IEC 61966-2-1).

    >>> np.round(linear_to_srgb(np.array([0.0, 0.0031308, 0.5, 1.0])), 4).tolist()
    [0.0, 0.0404, 0.7354, 1.0]
    """
    c = np.clip(np.asarray(c, dtype=np.float64), 0.0, 1.0)
    return np.where(c <= 0.0031308, 12.92 * c, 1.055 * np.power(c, 1 / 2.4) - 0.055)


class SoupColours:
    """Static per-vertex arrays of a soup: colours ``(N, 4)``, ``uv`` ``(N, 2)`` and draw ranges.

    ``ranges`` are ``(first vertex, vertex count, texture index or None)``.
    """

    def __init__(self, colours: np.ndarray, uv: np.ndarray, ranges: list[tuple]) -> None:
        self.colours = colours.astype(np.float32)
        self.uv = uv.astype(np.float32)
        self.ranges = ranges

    def __len__(self) -> int:
        return len(self.colours)


def soup_colours(meshes: list, materials: tuple, fallback: str) -> SoupColours:
    """The static arrays for the soup of ``meshes`` (triangle corners in order, mesh by mesh).

    A triangle without a material is ``fallback`` (a "#RRGGBB" design colour).
    """
    colours, uvs, textures = [], [], []
    base = np.array([linear_to_srgb(m.base_color[:3]).tolist() + [1.0] for m in materials]
                    + [list(rgba(fallback)[:3]) + [1.0]])
    tex = np.array([-1 if m.texture is None else m.texture for m in materials] + [-1])
    for mesh in meshes:
        n = len(mesh.triangles)
        mat = mesh.materials if mesh.materials is not None else np.full(n, -1)
        mat = np.where((mat >= 0) & (mat < len(materials)), mat, len(materials))
        colours.append(np.repeat(base[mat], 3, axis=0))
        textures.append(np.repeat(tex[mat], 3))
        if mesh.uv is not None:
            uvs.append(np.asarray(mesh.uv, dtype=np.float64)[mesh.triangles].reshape(-1, 2))
        else:
            uvs.append(np.zeros((3 * n, 2)))
    if not colours:
        return SoupColours(np.zeros((0, 4)), np.zeros((0, 2)), [])
    t = np.concatenate(textures)
    cuts = np.flatnonzero(np.diff(t)) + 1
    starts = np.concatenate([[0], cuts])
    ends = np.concatenate([cuts, [len(t)]])
    ranges = [(int(a), int(b - a), None if t[a] < 0 else int(t[a]))
              for a, b in zip(starts, ends, strict=True)]
    return SoupColours(np.concatenate(colours), np.concatenate(uvs), ranges)


class TexturedSoupItem(BoneItem):
    """A soup in its materials' colours and textures; see the module docstring.

    ``images`` maps a texture index to ``(RGBA (H, W, 4) uint8, (wrap S, wrap T))``
    or None (that texture is drawn white: its base colour alone).
    """

    def __init__(self, geometry, colours: SoupColours, images: dict, **kwds) -> None:
        super().__init__(geometry, shader=TEXTURED_LIT_SHADER, **kwds)
        self.static = colours
        self._images = images
        self._textures: dict = {}  # texture index (None: white) -> GL name
        self._uv_buffer = None
        self._colour_buffer = None

    def _texture(self, index):
        """The GL texture of ``index`` (made in the current context on first use)."""
        name = self._textures.get(index)
        if name is not None:
            return name
        image = self._images.get(index) if index is not None else None
        if image is None:
            pixels, wrap = np.full((1, 1, 4), 255, np.uint8), (10497, 10497)
        else:
            pixels, wrap = image
        name = GL.glGenTextures(1)
        GL.glBindTexture(GL.GL_TEXTURE_2D, name)
        h, w = pixels.shape[:2]
        # RGBA rows are whole words: the default unpack alignment (4) holds,
        # and it must stay as it is (QPainter's glyph uploads use it after us).
        # Rows top first, as glTF's (0, 0) is the image's top left: no flip.
        GL.glTexImage2D(GL.GL_TEXTURE_2D, 0, GL.GL_RGBA, w, h, 0, GL.GL_RGBA,
                        GL.GL_UNSIGNED_BYTE, np.ascontiguousarray(pixels))
        GL.glTexParameteri(GL.GL_TEXTURE_2D, GL.GL_TEXTURE_WRAP_S, _WRAP.get(wrap[0], GL.GL_REPEAT))
        GL.glTexParameteri(GL.GL_TEXTURE_2D, GL.GL_TEXTURE_WRAP_T, _WRAP.get(wrap[1], GL.GL_REPEAT))
        GL.glTexParameteri(GL.GL_TEXTURE_2D, GL.GL_TEXTURE_MAG_FILTER, GL.GL_LINEAR)
        try:
            # Mipmaps against shimmer when the asset is small on screen; the
            # nearest level, bilinear: trilinear filtering costs a software
            # rasteriser twice the texel reads.
            GL.glGenerateMipmap(GL.GL_TEXTURE_2D)
            GL.glTexParameteri(GL.GL_TEXTURE_2D, GL.GL_TEXTURE_MIN_FILTER,
                               GL.GL_LINEAR_MIPMAP_NEAREST)
        except GL.GLError:  # no mipmaps on this context: plain linear filtering
            GL.glTexParameteri(GL.GL_TEXTURE_2D, GL.GL_TEXTURE_MIN_FILTER, GL.GL_LINEAR)
        self._textures[index] = name
        return name

    def _static_buffers(self):
        if self._uv_buffer is None:
            self._uv_buffer, self._colour_buffer = (
                QtOpenGL.QOpenGLBuffer(QtOpenGL.QOpenGLBuffer.Type.VertexBuffer) for _ in "uc")
            for buffer, data in ((self._uv_buffer, self.static.uv),
                                 (self._colour_buffer, self.static.colours)):
                buffer.create()
                buffer.bind()
                buffer.allocate(np.ascontiguousarray(data), data.nbytes)
                buffer.release()
        return self._uv_buffer, self._colour_buffer

    def paint(self):
        self.setupGLState()
        if (dirty := self.parseMeshData()):
            self.upload_vertex_buffers(dirty)
        if self.vertexes is None or not len(self.vertexes) \
                or len(self.vertexes) != len(self.static):
            return
        mvp = np.array(self.mvpMatrix().data(), dtype=np.float32)
        normal = np.array(self.modelViewMatrix().normalMatrix().data(), dtype=np.float32)
        es2 = QtGui.QOpenGLContext.currentContext().hasExtension(b"GL_ARB_ES2_compatibility")
        shader = self.shader()
        program = shader.program(es2_compat=es2)
        uv_buffer, colour_buffer = self._static_buffers()
        enabled = []
        for name, buffer, size in (("a_position", self.m_vbo_position, 3),
                                   ("a_normal", self.m_vbo_normal, 3),
                                   ("a_color", colour_buffer, 4), ("a_uv", uv_buffer, 2)):
            loc = GL.glGetAttribLocation(program, name)
            if loc == -1:
                continue
            buffer.bind()
            GL.glVertexAttribPointer(loc, size, GL.GL_FLOAT, False, 0, None)
            buffer.release()
            GL.glEnableVertexAttribArray(loc)
            enabled.append(loc)
        try:
            with shader:
                GL.glUniformMatrix4fv(GL.glGetUniformLocation(program, "u_mvp"), 1, False, mvp)
                loc = GL.glGetUniformLocation(program, "u_normal")
                if loc != -1:
                    GL.glUniformMatrix3fv(loc, 1, False, normal)
                GL.glActiveTexture(GL.GL_TEXTURE0)
                for first, count, texture in self.static.ranges:
                    GL.glBindTexture(GL.GL_TEXTURE_2D, self._texture(texture))
                    GL.glDrawArrays(GL.GL_TRIANGLES, first, count)
                GL.glBindTexture(GL.GL_TEXTURE_2D, 0)
        finally:
            for loc in enabled:
                GL.glDisableVertexAttribArray(loc)
