"""The plan of a count, every choice made in one place (:mod:`.plan`), by the
rules of :mod:`.rules` (device, algorithm, pipeline, merge's total) and of
:mod:`.spread` (parts, GPUs, executor, where and how the graph is prepared)."""
