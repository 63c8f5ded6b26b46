"""Adapters in and out: graphs from NetworkX (:mod:`.convert`), frames
(:mod:`.frames`) and arrays of ids (:mod:`.edge_arrays`); results as frames
(:mod:`.results`); seeded synthetic edge lists (:mod:`.generators`)."""
