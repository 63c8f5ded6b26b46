"""Results as frames: per-node and per-edge values beside the graph's node labels.

A graph whose edges are on the GPU (from a cuDF frame or CuPy arrays) gives a
cuDF frame when cuDF imports, its columns left on the GPU; every other graph
gives a pandas frame. Columns are built whole from arrays: the ``TriGraph``'s
labels (an array, or a list of objects taken as one object array) are gathered
by the ids of the rows, never looked up node by node.
"""

import numpy as np

from ..classes.labels import gather, host_labels, is_cudf
from ..gpu.device import module_of, to_host

__all__ = ["node_frame", "edge_frame", "build_frame", "frame_module", "label_array", "labels_of"]


def frame_module(G):
    """``cudf`` when ``G``'s edges are on the GPU and cuDF imports, else ``pandas``."""
    if module_of(G.src) is not np:
        try:
            import cudf
        except ImportError:
            pass
        else:
            return cudf
    try:
        import pandas
    except ImportError:
        raise ImportError(
            "as_frame=True needs pandas (pip install pandas), or cuDF for a graph on the GPU"
        ) from None
    return pandas


def label_array(G, xp):
    """Every node label in id order: a NumPy or CuPy array for array labels and
    for the ids themselves, a cuDF Series for cuDF labels, else a NumPy object
    array of the label objects."""
    if G.labels is None:
        return xp.arange(G.n, dtype=np.int64)
    if isinstance(G.labels, list):
        return host_labels(G.labels)
    return G.labels


def labels_of(G, module, ids):
    """The labels of ``ids`` (arrays of ids, any shape's rows) in columns for a
    frame of ``module``: gathered on the GPU for cuDF when the labels are there,
    else on the host."""
    labels = label_array(G, module_of(ids[0]))
    on_gpu = is_cudf(labels) or module_of(labels) is not np
    if module.__name__ != "cudf" or not on_gpu:
        labels, ids = host_labels(labels), [to_host(i) for i in ids]
    return [gather(labels, i) for i in ids]


def build_frame(module, columns):
    """A frame of ``module`` (pandas or cudf) from name -> array columns.

    pandas gets host arrays; object columns are typed as pandas types a list of
    such labels (``int64`` for ints, ``str`` for strings, ``datetime64`` for
    timestamps). cuDF gets device arrays as they are and object columns through
    pandas, which types them.
    """
    import pandas

    frame = {}
    for name, values in columns.items():
        if getattr(values, "dtype", None) == np.dtype(object):
            values = pandas.Series(values).infer_objects()
            if module is not pandas:
                values = module.from_pandas(values)
        elif module is pandas:
            values = to_host(values)
        frame[name] = values
    return module.DataFrame(frame)


def node_frame(G, selection, values, name):
    """Per-node values as a frame of columns ``node`` and ``name``.

    Parameters
    ----------
    G : TriGraph
    selection : Selection or None
        The nodes asked for (:func:`nx_tricount.nxapi.node_selection.select`): the
        rows and labels are the keys of the dict over it (each node once, at its
        first occurrence, under its first object); None gives every node in G's order.
    values : NumPy or CuPy array
        One value per node, in id order.
    name : str
        The values' column.

    Returns
    -------
    pandas.DataFrame or cudf.DataFrame
    """
    module = frame_module(G)
    if selection is None:
        labels = label_array(G, module_of(values))
    else:
        keys, ids = selection.distinct()
        values = values[module_of(values).asarray(ids, dtype=np.int64)]
        labels = np.fromiter(keys, dtype=object, count=len(keys))
    return build_frame(module, {"node": labels, name: values})


def edge_frame(G, source, target, values, name):
    """Per-edge values as a frame of columns ``source``, ``target`` and ``name``.

    Parameters
    ----------
    G : TriGraph
    source, target : NumPy or CuPy int arrays
        Each row's endpoints as ids of ``G``.
    values : NumPy or CuPy array
        One value per row.
    name : str
        The values' column.

    Returns
    -------
    pandas.DataFrame or cudf.DataFrame
    """
    module = frame_module(G)
    sources, targets = labels_of(G, module, [source, target])
    return build_frame(module, {"source": sources, "target": targets, name: values})
