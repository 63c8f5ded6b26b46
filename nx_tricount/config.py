"""The backend's configuration: ``nx.config.backends.tricount``.

Every knob, its accepted values and its default live here. NetworkX builds the
object while ``import networkx`` runs (through ``_info.get_info``), so this module
imports nothing but NetworkX's ``Config`` base class.
"""

import os

from networkx.utils.configs import Config

__all__ = ["TricountConfig", "CHOICES", "KERNEL_PARAMETERS", "config_from_environment"]

#: Accepted values of each string-valued setting; the first is the default.
CHOICES = {
    "algorithm": ("auto", "merge", "wedge", "edge", "vertex", "hash", "bitmap"),
    "orientation": ("auto", "id", "degree", "a-direction"),
    "ordering": ("auto", "none", "degree", "a-order", "in-degree", "collective"),
    "device": ("auto", "gpu", "cpu"),
}


#: Kernel parameters of the GPU algorithms: setting -> (algorithm, keyword of its
#: ``count_gpu``, smallest accepted value). ``None`` (the default) lets the kernel
#: choose.
KERNEL_PARAMETERS = {
    "wedge_spread": ("wedge", "spread", 1),
    "wedge_bitmap_rows": ("wedge", "bitmap_rows", 0),
    "hash_block_degree": ("hash", "block_degree", 2),
    "hash_chunk": ("hash", "chunk", 1),
}


def check_parameter(key, value):
    """Return ``value`` if it is accepted for kernel parameter ``key``, else raise."""
    smallest = KERNEL_PARAMETERS[key][2]
    if value is None:
        return value
    if isinstance(value, bool) or not isinstance(value, int) or value < smallest:
        raise ValueError(
            f"Invalid tricount {key} {value!r}; accepted values are None (the kernel "
            f"chooses) or an int >= {smallest}"
        )
    return value


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
    wedge_spread : int or None
        Wedges per GPU thread of ``wedge`` (WeTriC §5.2); None: the default.
    wedge_bitmap_rows : int or None
        Most bitmap rows of ``wedge`` on the GPU (WeTriC §5.4; 0 turns the bitmap
        off); None: the default.
    hash_block_degree : int or None
        Out-degree above which ``hash`` gives a vertex a whole block instead of a
        warp on the GPU (TRUST §4.3); None: 100.
    hash_chunk : int or None
        Vertices a warp of ``hash`` takes at a time on the GPU (TRUST §4.3); None:
        chosen from the graph.
    """

    algorithm: str = "auto"
    orientation: str = "auto"
    ordering: str = "auto"
    device: str = "auto"
    wedge_spread: int | None = None
    wedge_bitmap_rows: int | None = None
    hash_block_degree: int | None = None
    hash_chunk: int | None = None

    def _on_setattr(self, key, value):
        if key in CHOICES:
            return check_choice(key, value)
        if key in KERNEL_PARAMETERS:
            return check_parameter(key, value)
        return super()._on_setattr(key, value)


def config_from_environment(environ=os.environ):
    """Build the default configuration, taking ``NX_TRICOUNT_<KEY>`` variables."""
    values = {}
    for key in CHOICES:
        name = f"NX_TRICOUNT_{key.upper()}"
        if environ.get(name):
            values[key] = environ[name].strip().lower()
    for key in KERNEL_PARAMETERS:
        name = f"NX_TRICOUNT_{key.upper()}"
        text = environ.get(name, "").strip()
        if text:
            try:
                values[key] = int(text)
            except ValueError:
                raise ValueError(f"{name} must be an integer, got {text!r}") from None
    return TricountConfig(**values)
