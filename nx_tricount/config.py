"""The backend's configuration: ``nx.config.backends.tricount``.

Every knob, its accepted values and its default live here. NetworkX builds the
object while ``import networkx`` runs (through ``_info.get_info``), so this module
imports nothing but NetworkX's ``Config`` base class.
"""

import os

from networkx.utils.configs import Config

__all__ = ["TricountConfig", "CHOICES", "config_from_environment"]

#: Accepted values of each string-valued setting; the first is the default.
CHOICES = {
    "algorithm": ("auto", "merge", "wedge", "edge", "vertex", "hash", "bitmap"),
    "orientation": ("auto", "id", "degree", "a-direction"),
    "ordering": ("auto", "none", "degree", "a-order", "in-degree", "collective"),
    "device": ("auto", "gpu", "cpu"),
}


def check_choice(key, value):
    """Return ``value`` if it is accepted for setting ``key``, else raise ValueError."""
    accepted = CHOICES[key]
    if value not in accepted:
        raise ValueError(
            f"Invalid tricount {key} {value!r}; accepted values are "
            + ", ".join(repr(v) for v in accepted)
        )
    return value


class TricountConfig(Config):
    """Configuration of the ``tricount`` backend.

    Attributes
    ----------
    algorithm : {"auto", "merge", "wedge", "edge", "vertex", "hash", "bitmap"}
        Counting algorithm. ``"merge"`` is Polak's forward algorithm (one task per
        oriented edge, two-pointer merge); ``"wedge"`` is WeTriC's wedge-parallel
        binary search; ``"edge"`` and ``"vertex"`` are its edge- and
        vertex-parallel binary-search baselines; ``"hash"`` is TRUST's
        vertex-centric hashing; ``"bitmap"`` intersects neighbour lists as bit
        slices. ``"auto"`` chooses per graph.
    orientation : {"auto", "id", "degree", "a-direction"}
        How each undirected edge is directed before counting: from the smaller id
        to the larger; from the lower degree to the higher (ties by id); or by
        A-direction's peeling with a doubling degree threshold, which evens out
        the out-degrees.
    ordering : {"auto", "none", "degree", "a-order", "in-degree", "collective"}
        Vertex relabelling: keep the ids; number vertices by ascending degree
        before orienting; or, after orienting, A-order's bucket balancing of
        memory- and compute-bound vertices, or TRUST's collision-reducing
        numberings by in-degree or by collective out-degree.
    device : {"auto", "gpu", "cpu"}
        Where to count. ``"auto"`` uses the GPU when CuPy sees one and the
        algorithm has a GPU implementation; ``"gpu"`` without a GPU is an error.
    """

    algorithm: str = "auto"
    orientation: str = "auto"
    ordering: str = "auto"
    device: str = "auto"

    def _on_setattr(self, key, value):
        if key in CHOICES:
            return check_choice(key, value)
        return super()._on_setattr(key, value)


def config_from_environment(environ=os.environ):
    """Build the default configuration, taking ``NX_TRICOUNT_<KEY>`` variables."""
    values = {}
    for key in CHOICES:
        name = f"NX_TRICOUNT_{key.upper()}"
        if environ.get(name):
            values[key] = environ[name].strip().lower()
    return TricountConfig(**values)
