"""The quantities NetworkX's functions are made of, counted as a plan says:
per vertex (:mod:`.per_vertex`), per edge (:mod:`.per_edge`), and the rest of
the triangle family (:mod:`.family`). Arrays stay on the plan's device."""
