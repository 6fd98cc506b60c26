"""Qt-free models built from loaded files (rigs, poses, ...)."""
