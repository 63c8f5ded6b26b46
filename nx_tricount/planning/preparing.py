"""How the graph a spread counts is prepared, decided once its orientation and
ordering are known (:func:`~nx_tricount.planning.plan.make_plan`, steps 5 and 7):
in chunks straight into its parts (:func:`streaming`), in passes on one GPU
(:func:`in_passes`), or by the GPUs of a replicated count together
(:func:`together`). Each takes a :class:`~.spread.Spread` and returns it, or
says whether it holds."""

from dataclasses import replace

from ..preprocess.streamed import STREAMED

__all__ = ["streaming", "in_passes", "together", "replicated_on_gpus"]


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


def together(spread, orientation, ordering, simple_unweighted, pipeline):
    """``spread`` with :attr:`Spread.prepared_together` decided: the GPUs of a
    replicated count prepare its graph together when it is the unweighted
    undirected simple graph (``simple_unweighted``) of the sorting ``pipeline``,
    prepared by rules that need only the degrees, and the current GPU is one of
    them (it holds the results). Edges in host memory: each GPU moves its share
    over its own link. Edges on a GPU: the others read their shares from it; on
    two H200s R-MAT 25 counted in 0.305 s so, against 0.316 prepared on the one
    GPU (0.099 s) and copied to the other, whose count then started 15 ms later
    (docs/benchmarks.md, "Several GPUs"). A spread that fits only so
    (``needs_together``) and is not prepared together here is planned again by
    the caller, on the 2D partition."""
    if not replicated_on_gpus(spread) or not (simple_unweighted and pipeline == "sorted"):
        return spread
    if (orientation, ordering) not in STREAMED:
        return spread
    import cupy

    if cupy.cuda.Device().id not in spread.devices:
        return spread
    reason = (
        f"prepared together: each of the {len(spread.devices)} GPUs moves and prepares a share of "
        f"the edges, then gathers the others' ({orientation} orientation and {ordering} ordering "
        "need only the degrees)"
    )
    return replace(spread, prepared_together=True, reasons=(*spread.reasons, reason))


def replicated_on_gpus(spread):
    """Whether ``spread`` counts the whole graph on every GPU of a host (its
    threads, not Dask's workers): the GPUs may then prepare it together."""
    return spread.regime == "replicated" and spread.executor == "gpus"
