"""The whole oriented graph a plan counts, as every quantity reads it: on each of
the plan's GPUs when they prepare it together, else on its preparation device by
its pipeline (made once per graph: :mod:`nx_tricount.classes.preparation`)."""

import time

from ..classes import preparation
from ..execution import phases

__all__ = ["whole_oriented"]


def whole_oriented(G, plan, weight=None):
    """The oriented CSR of ``G`` that ``plan`` counts, with the values of
    ``weight`` where given: the first GPU's copy, holding the others', when the
    GPUs prepare it together (the preparation's seconds recorded as a phase)."""
    spread = plan.spread
    if spread.prepared_together and weight is None:
        started = time.perf_counter()
        prepared = preparation.replicated_csr(G, plan.orientation, plan.ordering, spread.devices)
        phases.record(
            worker="prepare", devices=list(spread.devices), prepare_s=round(time.perf_counter() - started, 6)
        )
        return prepared
    return preparation.oriented_csr(
        G, plan.orientation, plan.ordering, plan.preparation_device, weight, pipeline=plan.pipeline
    )
