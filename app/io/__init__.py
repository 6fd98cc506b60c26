"""Qt-free readers of file formats (glTF scene graphs, ...)."""
