"""Where a spread count's time goes: each executor records, per worker, its
phases (the shares' cut, copy of the graph, count, combine: seconds) and the
bytes it moved, for whoever collects them (``examples/benchmark_scale.py``) and
for the ``nx_tricount`` logger at INFO level.

    >>> from nx_tricount.execution import phases
    >>> with phases.collect() as records:
    ...     pass  # a count spread over several workers
    >>> records
    []
"""

import contextlib
import logging
import threading

__all__ = ["collect", "record"]

logger = logging.getLogger("nx_tricount")

_lock = threading.Lock()
_collectors = []


@contextlib.contextmanager
def collect():
    """Collect the phase records of the counts run inside the ``with`` block:
    yields the list they are appended to, one dict per worker and one per combine."""
    records = []
    with _lock:
        _collectors.append(records)
    try:
        yield records
    finally:
        with _lock:
            _collectors.remove(records)


def record(**fields):
    """Record one worker's (or one combine's) phases: ``fields`` such as
    ``worker``, ``device``, ``shares``, ``cut_s``, ``copy_s``, ``count_s``, ``bytes``."""
    logger.info("tricount phases: %s", ", ".join(f"{key}={value}" for key, value in fields.items()))
    with _lock:
        for records in _collectors:
            records.append(dict(fields))
