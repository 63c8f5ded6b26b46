"""The NetworkX layer: NetworkX's functions with NetworkX's exact semantics, in
modules named after NetworkX's own (``cluster``, ``core``,
``convert_matrix``), their registration with NetworkX's dispatcher
(:mod:`.dispatch`, :mod:`.interface`) and the automatic dispatch's cost model
(:mod:`.should_run`). It reaches the engine through the plan and the quantities."""
