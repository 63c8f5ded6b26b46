"""The whole oriented graph a plan counts, as every quantity reads it: on each of
the plan's GPUs when they prepare it together, in passes on its GPU when only the
prepared graph fits there, else on its preparation device by its pipeline (made
once per graph: :mod:`nx_tricount.classes.preparation`)."""

from ..classes import preparation
from ..execution import phases

__all__ = ["whole_oriented"]


def whole_oriented(G, plan, weight=None):
    """The oriented CSR of ``G`` that ``plan`` counts, with the values of
    ``weight`` where given: the first GPU's copy, holding the others', when the
    GPUs prepare it together. A preparation together or in passes records its
    seconds as a phase (worker ``"prepare"``).

    Raises
    ------
    ValueError
        A ``weight`` with a plan made for unweighted counts, whose graph is
        prepared in passes (``make_plan(weighted=True)`` plans weighted ones).
    """
    spread = plan.spread
    if spread.prepared_in_passes:
        if weight is not None:
            raise ValueError(
                "this plan prepares the unweighted graph in passes; a weighted count needs "
                "make_plan(G, weighted=True)"
            )
        device = plan.preparation_device
        recorded = _recorded([device], passes=True)
        return preparation.csr_in_passes(
            G, plan.orientation, plan.ordering, spread.memory_limit, device, built=recorded
        )
    if spread.prepared_together and weight is None:
        recorded = _recorded(list(spread.devices))
        return preparation.replicated_csr(G, plan.orientation, plan.ordering, spread.devices, built=recorded)
    return preparation.oriented_csr(
        G, plan.orientation, plan.ordering, plan.preparation_device, weight, pipeline=plan.pipeline
    )


def _recorded(devices, **fields):
    """What records a preparation's seconds as the phase of worker ``"prepare"``."""
    return lambda seconds: phases.record(
        worker="prepare", devices=devices, prepare_s=round(seconds, 6), **fields
    )
