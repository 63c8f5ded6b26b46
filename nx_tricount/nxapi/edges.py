"""Per-edge results of the direct API (not NetworkX functions: NetworkX has no
per-edge triangle count, so these are called as ``nx_tricount.<name>`` only).
Not registered with NetworkX's dispatcher, each passes through the GPU-failure
boundary itself."""

from ..gpu.device import to_host
from ..gpu.errors import gpu_errors
from ..io.results import edge_frame
from ..planning.plan import make_plan
from ..quantities.per_edge import triangles_per_edge
from .arguments import as_trigraph

__all__ = ["edge_triangles"]


def edge_triangles(G, *, as_frame=False, algorithm=None, orientation=None, ordering=None, device=None):
    """Count the triangles on each edge (the edge's support, as k-truss uses it).

    Parameters
    ----------
    G : TriGraph or networkx.Graph
        Undirected; a multigraph's parallel edges count as one edge, and
        self-loops are ignored, as ``triangles`` does.
    as_frame : bool
        Return a frame of columns ``source``, ``target`` and ``triangles``
        instead of a dict: pandas, or cuDF when G's edges are on the GPU and
        cuDF is installed.
    algorithm, orientation, ordering, device : str, optional
        Override ``nx.config.backends.tricount`` for this call.

    Returns
    -------
    dict or DataFrame
        One entry per edge: ``(u, v) -> triangles`` with ``u`` before ``v`` in
        G's node order, edges sorted by ``u``'s then ``v``'s position in it
        (the rows of the frame are in the same order).

    Raises
    ------
    NetworkXNotImplemented
        G is directed.

    Examples
    --------
    >>> import networkx as nx
    >>> import nx_tricount
    >>> G = nx.complete_graph(4)
    >>> G.add_edge(3, 4)
    >>> nx_tricount.edge_triangles(G)
    {(0, 1): 2, (0, 2): 2, (0, 3): 2, (1, 2): 2, (1, 3): 2, (2, 3): 2, (3, 4): 0}
    >>> nx_tricount.edge_triangles(G, as_frame=True).tail(2)
       source  target  triangles
    5       2       3          2
    6       3       4          0
    """
    with gpu_errors("computing nx_tricount.edge_triangles"):
        G = as_trigraph(G, ("directed",))
        plan = make_plan(G, algorithm=algorithm, orientation=orientation, ordering=ordering, device=device)
        source, target, counts = triangles_per_edge(G, plan)
        if as_frame:
            return edge_frame(G, source, target, counts, "triangles")
        labels = G.label_list()
        ends = zip(to_host(source).tolist(), to_host(target).tolist())
        return {(labels[u], labels[v]): t for (u, v), t in zip(ends, to_host(counts).tolist())}
