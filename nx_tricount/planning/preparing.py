"""How the graph a spread counts is prepared, decided once its orientation and
ordering are known (:func:`~nx_tricount.planning.plan.make_plan`, steps 5 and 7):
in chunks straight into its parts (:func:`streaming`), in passes on one GPU
(:func:`in_passes`), or by the GPUs of a replicated count together
(:func:`together`). Each takes a :class:`~.spread.Spread` and returns it, or
says whether it holds."""

from dataclasses import replace

from ..preprocess.streamed import STREAMED

__all__ = ["streaming", "in_passes", "together"]


def streaming(spread, orientation, ordering, simple_unweighted):
    """``spread`` with :attr:`Spread.streamed` decided: a graph prepared in parts
    is prepared in chunks straight into them when its count starts from the
    unweighted undirected simple graph (``simple_unweighted``) and its
    preprocessing needs only the degrees (:data:`~nx_tricount.preprocess.streamed.STREAMED`)."""
    if not (spread.prepared_in_parts and simple_unweighted and (orientation, ordering) in STREAMED):
        return spread
    reason = (
        f"prepared in chunks straight into its parts on the count's device: {orientation} "
        f"orientation and {ordering} ordering need only the degrees"
    )
    return replace(spread, streamed=True, reasons=(*spread.reasons, reason))


def in_passes(spread, orientation, ordering):
    """Whether ``spread`` may be prepared as it says: one prepared in passes
    needs a preprocessing that needs only the degrees
    (:data:`~nx_tricount.preprocess.streamed.STREAMED`); the caller plans one
    that does not again, without passes."""
    return not spread.prepared_in_passes or (orientation, ordering) in STREAMED


def together(spread, orientation, ordering, simple_unweighted, pipeline, resident):
    """``spread`` with :attr:`Spread.prepared_together` decided: the GPUs of a
    replicated count prepare its graph together when its edge rows are in host
    memory (not ``resident``: each GPU moves its share over its own link), it is
    the unweighted undirected simple graph (``simple_unweighted``) of the sorting
    ``pipeline``, prepared by rules that need only the degrees, and the current
    GPU is one of them (it holds the results). Edges already on a GPU are
    prepared there and copied: on two H200s that took 0.095 s and a 15 ms copy
    for R-MAT 25, against 0.107-0.15 s prepared together (docs/benchmarks.md,
    "Several GPUs"). A spread that fits only so (``needs_together``) and is not
    prepared together here is planned again by the caller, on the 2D partition."""
    replicated_on_gpus = spread.regime == "replicated" and spread.executor == "gpus"
    if not (replicated_on_gpus and not resident and simple_unweighted and pipeline == "sorted"):
        return spread
    if (orientation, ordering) not in STREAMED:
        return spread
    import cupy

    if cupy.cuda.Device().id not in spread.devices:
        return spread
    reason = (
        f"prepared together: the edges are in host memory, and each of the {len(spread.devices)} "
        f"GPUs moves and prepares a share of them, then gathers the others' ({orientation} "
        f"orientation and {ordering} ordering need only the degrees)"
    )
    return replace(spread, prepared_together=True, reasons=(*spread.reasons, reason))
