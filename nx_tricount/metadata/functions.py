"""What the backend says of each NetworkX function it implements, beside
NetworkX's own docstring: a note, and the settings it takes per call.

NetworkX appends them to its functions' docstrings (``help(nx.triangles)``)
from :func:`nx_tricount.metadata.info.get_info`; the backend's functions
(``nx_tricount.triangles``) carry NetworkX's docstring followed by the same
text (:func:`backend_section`, which :mod:`nx_tricount.nxapi.dispatch` uses).
Read inside ``import networkx``: standard library only.
"""

from textwrap import dedent

from .catalog import FUNCTIONS
from .config import CHOICES

__all__ = ["SUMMARY", "NOTES", "SETTINGS", "additional_parameters", "backend_section"]

#: The backend in one line (NetworkX's ``short_summary``).
SUMMARY = "Triangle counting on the GPU (CuPy) and CPU (numba)."

#: The keyword-only settings of every counting function, each overriding
#: ``nx.config.backends.tricount`` for one call.
SETTINGS = tuple(CHOICES)

#: Function name -> what the backend adds to NetworkX's docstring of it: how it
#: computes, where its results may differ, and what direct calls offer.
NOTES = {
    name: dedent(note).strip()
    for name, note in {
        "triangles": """
            Counts every node's triangles in 64-bit integers, on the GPU (CuPy
            kernels) or the CPU (numba). Called directly,
            ``nx_tricount.triangles(G, as_frame=True)`` returns a frame of columns
            ``node`` and ``triangles`` instead of a dict (pandas; cuDF for a graph
            whose edges are on the GPU).
            """,
        "clustering": """
            Weights that are numbers (Python's or NumPy's ints, floats, bools) are
            computed in float64: NetworkX computes NumPy float32 weights in float32,
            so those results differ in the last digits. Weights of other types are
            left to NetworkX's own ``clustering``, which gives its result or its
            TypeError. Called directly, ``nx_tricount.clustering(G, as_frame=True)``
            returns a frame of columns ``node`` and ``clustering`` (float64) instead
            of a dict (numeric weights only).
            """,
        "average_clustering": """
            The coefficients are those of ``clustering`` (its note on weights holds),
            added in NetworkX's order as Python's ``sum`` adds floats, so the mean is
            NetworkX's to the last bit.
            """,
        "transitivity": """
            Counts the triangles and the triads in 64-bit integers, on the GPU or the
            CPU; on a directed graph over ordered pairs of successors, as NetworkX.
            """,
        "square_clustering": """
            Exact: the squares are counted in 64-bit integers and each division is
            rounded as Python's. Memory is one row of counters per node counted at
            once, whatever the degrees. Of the settings, only ``device`` and
            ``ordering`` matter: every neighbourhood is walked whole.
            """,
        "generalized_degree": """
            Counts each edge's triangles once, in 64-bit integers, and tallies them
            at its two nodes.
            """,
        "all_triangles": """
            The triangles are listed in batches, the first one small: memory stays
            bounded, and the first triple comes after one count per edge. Each triple
            holds its nodes in NetworkX's order; the order of the triples is the
            backend's (NetworkX's follows its set iteration). Called directly,
            ``nx_tricount.all_triangles(G, as_frame=True)`` returns them all at once
            as a frame of columns ``u``, ``v`` and ``w`` (pandas; cuDF for a graph
            whose edges are on the GPU).
            """,
        "k_truss": """
            Counts each edge's triangles once; peeling an edge lowers the counts of
            the edges that shared a triangle with it rather than recounting. Returns
            a graph of G's class with G's node, edge and graph attributes (a TriGraph
            for a TriGraph).
            """,
        "from_pandas_edgelist": """
            Reads a pandas or cuDF frame (or a dict of columns) into a TriGraph. A
            graph instance as ``create_using`` is cleared, filled and returned, as
            NetworkX does.
            """,
    }.items()
}


def additional_parameters(name):
    """NetworkX's "additional parameters" of function ``name``: its settings
    (none for a function that builds a graph)."""
    if FUNCTIONS[name] != "counts":
        return {}
    return {
        f"{key} : str, optional": (
            f"One of {', '.join(repr(v) for v in CHOICES[key])}; overrides "
            f"nx.config.backends.tricount.{key} for this call."
        )
        for key in SETTINGS
    }


def backend_section(name):
    """The text NetworkX appends for ``tricount`` to the docstring of function
    ``name``, laid out as NetworkX lays it out (indented as its docstrings)."""
    lines = ["Backends", "--------", f"tricount : {SUMMARY}"]
    lines += [f"  {line}" if line else "" for line in NOTES[name].split("\n")]
    parameters = additional_parameters(name)
    if parameters:
        lines += ["", "  Additional parameters:"]
        for parameter in sorted(parameters):
            lines += [f"    {parameter}", f"      {parameters[parameter]}", ""]
        lines.pop()
    return "\n".join(f"    {line}" if line else "" for line in lines)
