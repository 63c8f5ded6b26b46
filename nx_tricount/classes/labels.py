"""Node labels: numbered 0..n-1 by first appearance, and read back by id.

A ``TriGraph``'s labels are one of:

- ``None``: the ids are the labels;
- a list of Python objects (from NetworkX graphs and host frames of objects);
- a NumPy or CuPy array of numbers;
- a cuDF Series, for the labels of a cuDF column that holds no numbers
  (strings, datetimes, categories): numbered on the GPU and read back to the
  host only when a result needs Python objects.

Numbering by first appearance (``src[0], dst[0], src[1], …``) gives the node
order of NetworkX's ``from_pandas_edgelist``.
"""

import numpy as np

from ..gpu.device import module_of, to_host

__all__ = ["is_cudf", "first_appearance_ids", "cudf_first_appearance_ids", "gather", "host_labels"]


def is_cudf(obj):
    """Whether ``obj`` is a cuDF object (a Series, an Index, a DataFrame)."""
    return type(obj).__module__.startswith("cudf")


def first_appearance_ids(src, dst):
    """Number the labels of ``src``/``dst`` (NumPy or CuPy arrays) by first appearance.

    Returns ``(src_ids, dst_ids, labels)`` with ``labels[i]`` the label of id i:
    an array of the same module for numbers, a list for objects.
    """
    xp = module_of(src)
    interleaved = xp.stack([src, dst], axis=1).ravel()
    if interleaved.dtype == object:
        codes, labels = _object_codes(interleaved)
    else:
        uniques, first, inverse = xp.unique(interleaved, return_index=True, return_inverse=True)
        inverse = inverse.ravel()
        order = xp.argsort(first)
        rank = xp.empty_like(order)
        rank[order] = xp.arange(order.size, dtype=order.dtype)
        codes = rank[inverse]
        labels = uniques[order]
    codes = codes.reshape(-1, 2)
    return xp.ascontiguousarray(codes[:, 0]), xp.ascontiguousarray(codes[:, 1]), labels


def _object_codes(labels):
    """First-appearance codes of object labels, and the labels of the codes.

    As NetworkX's node dict: 1, 1.0, True and np.int64(1) are one node, labelled
    as it first appears. pandas' factorize (a C loop over the rows) numbers the
    rows by first appearance but keeps True apart from 1, so its uniques, far
    fewer than the rows, are merged by a dict afterwards.
    """
    try:
        import pandas as pd
    except ImportError:  # a dict of lists needs no pandas: a dict over the rows
        index = {}
        codes = np.fromiter((index.setdefault(v, len(index)) for v in labels.tolist()), np.int64, labels.size)
        return codes, list(index)
    codes, uniques = pd.factorize(labels, sort=False)
    index = {}
    merged = np.fromiter((index.setdefault(u, len(index)) for u in uniques.tolist()), np.int64, len(uniques))
    return merged[codes], list(index)


def cudf_first_appearance_ids(src, dst):
    """Number two cuDF Series of one dtype by first appearance, on the GPU.

    cuDF's factorize gives every distinct label a code; the codes are then
    numbered by first appearance like numbers. Nothing is copied to the host.

    Returns ``(src_ids, dst_ids, labels)``: CuPy arrays and a cuDF Series.
    """
    import cudf
    import cupy

    both = cudf.concat([src, dst], ignore_index=True)
    codes, uniques = both.factorize()
    codes = cupy.asarray(codes).astype(np.int64, copy=False)
    rows = len(src)
    src_ids, dst_ids, first_codes = first_appearance_ids(codes[:rows], codes[rows:])
    labels = cudf.Series(uniques).take(first_codes).reset_index(drop=True)
    return src_ids, dst_ids, labels


def gather(labels, ids):
    """The labels of ``ids`` (an int array, moved to the labels' device): an
    array, or a cuDF Series for cuDF labels."""
    if is_cudf(labels) or module_of(labels) is not np:
        import cupy

        ids = cupy.asarray(ids)
        return labels.take(ids).reset_index(drop=True) if is_cudf(labels) else labels[ids]
    return labels[to_host(ids)]


def host_labels(labels):
    """Labels as a NumPy array: cuDF labels become the Python objects their
    pandas column holds (``str``, ``pd.Timestamp``, category values)."""
    if is_cudf(labels):
        return labels.to_pandas().to_numpy(dtype=object)
    if isinstance(labels, list):
        return np.fromiter(labels, dtype=object, count=len(labels))  # tuples stay whole
    return to_host(labels)
