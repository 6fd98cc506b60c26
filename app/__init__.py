"""QuatLab application layer: state models (no Qt), Qt widgets and the command line.

The state models (:mod:`quatlab.app.model.state` and friends) import no Qt, so they
can be driven from tests and the command line; Qt widgets subscribe to them.
"""

__version__ = "0.1.0"
