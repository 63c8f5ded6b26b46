"""The backend's graph (:class:`~.graph.TriGraph`: an edge frame and node
labels, :mod:`.labels`) and its cached preparations (:mod:`.preparation`: every
structure a count needs, made once per graph)."""
