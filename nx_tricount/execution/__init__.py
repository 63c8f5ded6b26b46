"""Running a plan: the whole graph as one count or the tasks of its 2D
partition (:mod:`.execute`) on the executor the plan names (:mod:`.executors`);
and counting a Dask DataFrame of edges on its workers (:mod:`.dask`)."""
