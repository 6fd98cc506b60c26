"""A pyqtgraph GL view on a native QOpenGLWindow, and how to grab a widget that holds one.

Every 3D view of QuatLab (the chain scene, the gimbal, the S3 projection, the
rig) is a :class:`GLWindowView`; :func:`grab_widget` renders a widget tree
with its GL windows in place, for screenshots. Why a native window and not a
QOpenGLWidget is told in the class docstring.
"""

from __future__ import annotations

from OpenGL import GL
from PyQt6 import QtCore, QtGui, QtOpenGL, QtWidgets
from pyqtgraph.opengl.GLViewWidget import GLViewMixin

__all__ = ["GLWindowView", "UserCamera", "grab_widget"]


class GLWindowView(GLViewMixin, QtOpenGL.QOpenGLWindow):
    """pyqtgraph's GL view on a native :class:`QOpenGLWindow`, for widget layouts.

    Why not ``gl.GLViewWidget`` (a QOpenGLWidget): while a window holds one
    QOpenGLWidget, even in a hidden tab, Qt composes the whole top level
    through OpenGL on every flush, so under Xvfb repainting one label cost
    10-12 ms and a change of t 24-36 ms (benchmarks/bench_window.py). A
    native child window is drawn and swapped on its own and the widgets keep
    the raster backing store. That only pays when *every* GL view of the
    window is one of these.

    Put :attr:`widget` in layouts and give *it* the object name and minimum
    size: it is the window container (``createWindowContainer``) and owns
    the view, so the view lives and dies with it. The view keeps the
    GLViewWidget API (items, camera, ``renderToArray``), and
    :meth:`grabFramebuffer` renders a fresh frame like QOpenGLWidget's.
    ``QWidget.grab()`` does not see a native window: use :func:`grab_widget`.

    Parameters
    ----------
    parent : QWidget, optional
        Parent of :attr:`widget`.
    **kwargs
        For :class:`GLViewMixin` (``rotationMethod``).
    """

    def __init__(self, parent=None, **kwargs):
        super().__init__(**kwargs)
        # A QOpenGLWidget draws into an FBO with depth and stencil; a window
        # surface has neither unless asked, and without depth the bones
        # show their far faces through the near ones.
        fmt = QtGui.QSurfaceFormat.defaultFormat()
        fmt.setDepthBufferSize(24)
        fmt.setStencilBufferSize(8)
        self.setFormat(fmt)
        self._update_posted = False
        self.widget = QtWidgets.QWidget.createWindowContainer(self, parent)
        # As GLViewWidget: a click gives the view the camera keys, Tab skips it.
        self.widget.setFocusPolicy(QtCore.Qt.FocusPolicy.ClickFocus)

    @property
    def update_pending(self) -> bool:
        """Whether a frame was asked for (:meth:`update`) and not rendered yet."""
        return self._update_posted

    def update(self):
        """Render a new frame soon: one posted UpdateRequest however often called.

        ``QPaintDeviceWindow.update()`` goes through ``requestUpdate()``, which
        on xcb waits for an idle timer (5 ms); the posted event renders in the
        same pass of the event loop as the widgets' repaint. Never both: each
        would render a frame. Low priority, so posted layout changes (a new
        size) land before the frame. While not exposed (hidden tab, not shown
        yet) the base class only marks the window dirty, and the expose that
        shows it renders it.
        """
        if not self.isExposed():
            super().update()
        elif not self._update_posted:
            self._update_posted = True
            QtCore.QCoreApplication.postEvent(
                self, QtCore.QEvent(QtCore.QEvent.Type.UpdateRequest),
                QtCore.Qt.EventPriority.LowEventPriority.value)

    def event(self, ev):
        kind = ev.type()
        if kind == QtCore.QEvent.Type.UpdateRequest:
            # Whoever sent it, this frame takes in every change so far; reset
            # here rather than in paintGL, which a window that stopped being
            # exposed meanwhile never reaches.
            self._update_posted = False
        elif kind == QtCore.QEvent.Type.Paint and self._update_posted and self.isExposed():
            # An expose (a new size) renders a frame now, with every change so
            # far: the request posted before it would render the same frame
            # again (12 ms of the blending lesson's preset change, whose new
            # explanation resizes the view). A change made from here on posts
            # a new one.
            QtCore.QCoreApplication.removePostedEvents(self, QtCore.QEvent.Type.UpdateRequest)
            self._update_posted = False
        return super().event(ev)

    def devicePixelRatioF(self) -> float:
        # GLViewMixin and the label layer ask QWidget's name for it.
        return self.devicePixelRatio()

    def mousePressEvent(self, ev):
        # The click lands on the native window, never on the container, so
        # the widgets' click-to-focus does not happen: activate the window
        # so the camera keys reach it (the container follows it).
        self.requestActivate()
        super().mousePressEvent(ev)

    def grabFramebuffer(self) -> QtGui.QImage:
        """A frame rendered now into an FBO, as ``QOpenGLWidget.grabFramebuffer`` gives.

        ``QOpenGLWindow``'s own reads the back buffer, which after a swap
        holds whatever the driver left there. Rendering offscreen shows
        changes not on screen yet, and does not care whether the window is
        covered. Opaque (RGB32, the framebuffer's RGB as is), like the
        screen: painted into a widget screenshot, no alpha left by blending
        may let the widgets underneath show through. A null image while the
        view has no GL context.
        """
        if not self._context_ready():
            return QtGui.QImage()
        self.makeCurrent()
        w, h = self.deviceWidth(), self.deviceHeight()
        fmt = QtOpenGL.QOpenGLFramebufferObjectFormat()
        fmt.setAttachment(QtOpenGL.QOpenGLFramebufferObject.Attachment.CombinedDepthStencil)
        fbo = QtOpenGL.QOpenGLFramebufferObject(w, h, fmt)
        try:
            fbo.bind()
            GL.glViewport(0, 0, w, h)
            self.paintGL()
            img = fbo.toImage().convertToFormat(QtGui.QImage.Format.Format_RGB32)
        finally:
            fbo.release()
        img.setDevicePixelRatio(self.devicePixelRatio())
        return img

    def _context_ready(self) -> bool:
        """Whether the GL context exists; a shown view gets up to 2 s for its first frame.

        QOpenGLWindow makes its context on its first paint, after the window
        system's first expose, and a screenshot taken right after ``show()``
        can come before that.
        """
        deadline = QtCore.QDeadlineTimer(2000)
        while not self.isValid() and self.isVisible() and not deadline.hasExpired():
            QtCore.QCoreApplication.processEvents()
            QtCore.QThread.msleep(5)
        return self.isValid()


class UserCamera:
    """Mixin for a :class:`GLWindowView` with a ``reset_camera()``: the user's camera.

    R or Home resets the camera; a wheel zoom or a navigation key marks it
    ``_camera_touched``, so the view stops re-framing itself (how a press or
    drag counts is the subclass's: a click may also pick).
    """

    _camera_touched = False

    def wheelEvent(self, ev):
        self._camera_touched = True
        super().wheelEvent(ev)

    def keyPressEvent(self, ev):
        if ev.key() in (QtCore.Qt.Key.Key_R, QtCore.Qt.Key.Key_Home):
            self.reset_camera()
            ev.accept()
            return
        if ev.key() in self.noRepeatKeys:
            self._camera_touched = True
        super().keyPressEvent(ev)


def grab_widget(widget: QtWidgets.QWidget) -> QtGui.QImage:
    """``widget.grab()`` with the GL views inside it painted in, as the screen shows them.

    ``QWidget.grab()`` renders the widget tree only, and a :class:`GLWindowView`
    is a native window beside it: its container comes out empty. Each
    visible view inside ``widget`` is rendered again (:meth:`GLWindowView.grabFramebuffer`)
    and drawn where its container is, clipped to the part of the container
    not covered by other widgets.
    """
    img = widget.grab().toImage()
    painter = None
    for view in QtGui.QGuiApplication.allWindows():
        if not isinstance(view, GLWindowView):
            continue
        box = view.widget
        if not (box.isVisible() and (box is widget or widget.isAncestorOf(box))):
            continue
        region = box.visibleRegion()
        frame = view.grabFramebuffer()
        if region.isEmpty() or frame.isNull():
            continue
        offset = box.mapTo(widget, QtCore.QPoint(0, 0)) if box is not widget else QtCore.QPoint()
        if painter is None:
            painter = QtGui.QPainter(img)
        painter.setClipRegion(region.translated(offset))
        painter.drawImage(offset, frame)
    if painter is not None:
        painter.end()
    return img
