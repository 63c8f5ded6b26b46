"""Hypothesis strategies for the property tests (tests/test_properties.py).

Every strategy returns a *spec*, not a live object: a spec builds a fresh graph,
``nodes=`` argument or frame on each call (``.build()`` / ``.make()``), so that
NetworkX and the backend never share a graph (no conversion cache in between)
nor a consumed generator. Each spec's ``repr`` is a few lines of Python that
rebuild it, so a falsifying example can be pasted into a reproducer.

Graphs come in two sizes:

* small (0 to 12 nodes): labels, edges, self-loops and isolated nodes are drawn
  one by one by hypothesis, so failures shrink to a handful of edges;
* large (13 to 300 nodes): hypothesis draws the size, the density (sparse: up to
  4 edges per node; dense: up to 60 nodes, edge probability 0.2 to 1), a label
  kind, the share of self-loops and a seed; NumPy draws the edges from the seed.
"""

import decimal
import itertools
import math

import networkx as nx
import numpy as np
from hypothesis import strategies as st

from nx_tricount.metadata.config import CHOICES

__all__ = [
    "CLASSES",
    "CONFIGURATIONS",
    "NAN",
    "GraphSpec",
    "NodesSpec",
    "FrameSpec",
    "configurations",
    "graphs",
    "nodes_arguments",
    "array_nodes_arguments",
    "frames",
    "WEIGHT_KINDS",
]

CLASSES = (nx.Graph, nx.DiGraph, nx.MultiGraph, nx.MultiDiGraph)

#: Every configuration: algorithm x orientation x ordering ("auto" included).
CONFIGURATIONS = [
    dict(algorithm=a, orientation=o, ordering=r)
    for a, o, r in itertools.product(CHOICES["algorithm"], CHOICES["orientation"], CHOICES["ordering"])
]


def configurations():
    return st.sampled_from(CONFIGURATIONS)


#: One NaN object, so that a NaN label is one node (dict lookup by identity).
NAN = float("nan")

# ---------------------------------------------------------------- node labels

#: Labels that are equal (and hash equal) to each other: a NetworkX graph holds
#: the first one added, and looks the others up as the same node.
COLLISIONS = (True, 1, 1.0, np.int64(1), np.float64(1.0), np.True_, False, 0, 0.0, np.int32(0))

_small_label = st.one_of(
    st.integers(0, 15),
    st.integers(-(2**70), 2**70),  # beyond int64: no int64 array of labels
    st.integers(-5, -1),
    st.text(alphabet="abcxyz01", max_size=3),
    st.tuples(st.integers(0, 3), st.sampled_from("ab")),
    st.frozensets(st.integers(0, 3), max_size=2),
    st.integers(-3, 20).map(np.int64),
    st.integers(0, 20).map(np.int32),
    st.floats(-3, 3, allow_nan=False, width=64).map(np.float64),
    st.floats(-3, 3, allow_nan=False),
    st.sampled_from(COLLISIONS),
    st.just(NAN),
    st.sampled_from(["", "0", "1", "None"]),  # strings that look like other labels
)

LABEL_KINDS = (
    "range",  # 0..n-1 in order: the backend's identity path
    "shuffled",
    "huge",
    "negative",
    "string",
    "tuple",
    "frozenset",
    "numpy",
    "float",
    "mixed",
)


def _labels(kind, n, rng):
    """n labels of a kind, for large graphs (distinct as NetworkX sees them,
    except "mixed", which may collide)."""
    if kind == "range":
        return list(range(n))
    if kind == "shuffled":
        return rng.permutation(3 * n).tolist()[:n]
    if kind == "huge":
        return [2**64 + 7 * i if i % 2 else -(2**63) - i for i in range(n)]
    if kind == "negative":
        return [-i - 1 for i in rng.permutation(n).tolist()]
    if kind == "string":
        return [f"v{i}" for i in rng.permutation(n).tolist()]
    if kind == "tuple":
        return [(i % 7, str(i // 7)) for i in range(n)]
    if kind == "frozenset":
        return [frozenset({i, -1}) for i in range(n)]
    if kind == "numpy":
        return [np.int64(i) if i % 2 else np.float64(i + 0.5) for i in range(n)]
    if kind == "float":
        return [i / 4 for i in range(n)]
    # mixed: one of each kind in turn, with collisions (True / 1 / 1.0, ...)
    pools = [
        range(n),
        (f"s{i}" for i in range(n)),
        ((i, "t") for i in range(n)),
        (frozenset({i}) for i in range(n)),
        (np.int64(i + 10 * n) for i in range(n)),
        (2**70 + i for i in range(n)),
        iter(COLLISIONS * n),
    ]
    iters = [iter(p) for p in pools]
    return apart_from_tuples([next(iters[int(k)]) for k in rng.integers(0, len(iters), n)])


def apart_from_tuples(labels):
    """``labels`` with NumPy scalars made Python numbers where tuples are present too.

    NetworkX's ``triangles`` compares neighbours with ``n != node``; a NumPy scalar
    against a tuple gives an array, so NetworkX drops the edge (one-element tuple)
    or raises ValueError (longer ones) where the graph has a triangle
    (docs/testing.md, "NetworkX's own limits"). No backend can match that.
    """
    if not any(isinstance(x, tuple) for x in labels):
        return labels
    return [x.item() if isinstance(x, np.generic) else x for x in labels]


# -------------------------------------------------------------------- weights

#: Kind -> value drawn from rng. "missing" leaves the attribute out (weight 1).
WEIGHT_KINDS = {
    "int": lambda rng: int(rng.integers(1, 10)),
    "float": lambda rng: float(rng.uniform(0, 3)),
    "negative": lambda rng: float(rng.uniform(-5, 5)),
    "negative_int": lambda rng: int(rng.integers(-5, 0)),
    "zero": lambda rng: [0, 0.0, -0.0][int(rng.integers(0, 3))],
    "float32": lambda rng: np.float32(rng.uniform(0, 3)),
    "numpy": lambda rng: [
        np.int64(rng.integers(1, 9)),
        np.float64(rng.uniform(0, 2)),
        np.uint8(rng.integers(1, 9)),
        np.int8(-3),
    ][int(rng.integers(0, 4))],
    "bool": lambda rng: bool(rng.integers(0, 2)),
    "tiny": lambda rng: float(rng.uniform(1, 2)) * 1e-300,
    "missing": lambda rng: _MISSING,
    "nan": lambda rng: [NAN, float("nan"), np.float64("nan")][int(rng.integers(0, 3))],
    "inf": lambda rng: [math.inf, -math.inf, np.float64(np.inf)][int(rng.integers(0, 3))],
    "str": lambda rng: ["7", "x", ""][int(rng.integers(0, 3))],
    "none": lambda rng: None,
    "decimal": lambda rng: decimal.Decimal(int(rng.integers(1, 20))) / 4,
    "huge_int": lambda rng: 2**70 + int(rng.integers(0, 9)),
}
_MISSING = object()

NUMERIC_FINITE = (
    "int",
    "float",
    "negative",
    "negative_int",
    "zero",
    "float32",
    "numpy",
    "bool",
    "tiny",
    "missing",
)


def weight_kinds(required, allowed=NUMERIC_FINITE):
    """A list of weight kinds containing one of ``required`` (and others from
    ``allowed``)."""
    return st.tuples(
        st.sampled_from(required), st.lists(st.sampled_from(allowed), max_size=3, unique=True)
    ).map(lambda t: sorted({t[0], *t[1]}))


# --------------------------------------------------------------------- graphs


class GraphSpec:
    """A NetworkX graph: class, nodes added first (in order), then edges
    ``(u, v)`` or ``(u, v, attrs)``. ``build()`` makes a fresh graph."""

    def __init__(self, cls, nodes, edges):
        self.cls, self.nodes, self.edges = cls, nodes, edges

    def build(self):
        G = self.cls()
        G.add_nodes_from(self.nodes)
        G.add_edges_from(self.edges)
        return G

    def __repr__(self):
        return (
            f"G = nx.{self.cls.__name__}()\n"
            f"G.add_nodes_from({self.nodes!r})\n"
            f"G.add_edges_from({self.edges!r})"
        )


@st.composite
def _small_graph(draw, cls, weights):
    if draw(st.booleans()):  # 0..n-1 in order, every node added first: the identity path
        labels = list(range(draw(st.integers(0, 12))))
        first = len(labels) if draw(st.integers(0, 3)) else draw(st.integers(0, len(labels)))
    else:
        labels = apart_from_tuples(draw(st.lists(_small_label, max_size=12)))
        first = draw(st.integers(0, len(labels)))  # the rest appear through edges
    if not labels:
        return GraphSpec(cls, [], [])
    index = st.integers(0, len(labels) - 1)
    pairs = draw(st.lists(st.tuples(index, index), max_size=3 * len(labels) + 3))
    rng = np.random.default_rng(draw(st.integers(0, 2**16)))
    # No self-loop on a NaN label: NetworkX's triangles takes it for a neighbour
    # (NaN != NaN; docs/testing.md, "NetworkX's own limits").
    pairs = [(i, j) for i, j in pairs if not (labels[i] is labels[j] and labels[i] != labels[j])]
    edges = [_edge(labels[i], labels[j], weights, rng) for i, j in pairs]
    return GraphSpec(cls, labels[:first], edges)


def _edge(u, v, weights, rng):
    if weights is None:
        return (u, v)
    name, kinds = weights
    value = WEIGHT_KINDS[kinds[int(rng.integers(0, len(kinds)))]](rng)
    return (u, v, {} if value is _MISSING else {name: value})


@st.composite
def _large_graph(draw, cls, weights):
    dense = draw(st.booleans())
    n = draw(st.integers(13, 60 if dense else 300))
    kind = draw(st.sampled_from(LABEL_KINDS))
    seed = draw(st.integers(0, 2**32 - 1))
    loops = draw(st.sampled_from([0.0, 0.0, 0.05, 0.3]))
    rng = np.random.default_rng(seed)
    labels = _labels(kind, n, rng)
    if dense:
        p = draw(st.floats(0.2, 1.0))
        upper = np.triu(rng.random((n, n)) < p, 1)
        if cls.is_directed(cls()):
            upper = upper | np.tril(rng.random((n, n)) < p, -1)
        src, dst = np.nonzero(upper)
        order = rng.permutation(src.size)
        src, dst = src[order], dst[order]
    else:
        m = draw(st.integers(0, 4 * n))
        src, dst = rng.integers(0, n, m), rng.integers(0, n, m)
    with_loops = rng.random(src.size) < loops
    dst = np.where(with_loops, src, dst)
    if cls.is_multigraph(cls()) and src.size:  # parallel edges
        extra = rng.integers(0, src.size, src.size // 4)
        src, dst = np.concatenate([src, src[extra]]), np.concatenate([dst, dst[extra]])
    first = n if kind == "range" and draw(st.booleans()) else draw(st.integers(0, n))
    edges = [_edge(labels[i], labels[j], weights, rng) for i, j in zip(src.tolist(), dst.tolist())]
    return GraphSpec(cls, labels[:first], edges)


@st.composite
def graphs(draw, classes=CLASSES, weights=None):
    """A GraphSpec of one of ``classes``. ``weights``: None, or a strategy of
    ``(attribute name, list of weight kinds)``."""
    cls = draw(st.sampled_from(classes))
    w = None if weights is None else draw(weights)
    if draw(st.integers(0, 2)):  # two small graphs for one large one
        return draw(_small_graph(cls, w))
    return draw(_large_graph(cls, w))


def weighted(required, allowed=NUMERIC_FINITE):
    """Strategy of ``(weight attribute name, weight kinds)``."""
    return st.tuples(st.sampled_from(["weight", "w"]), weight_kinds(required, allowed))


# -------------------------------------------------------------- nodes=


class NodesSpec:
    """A ``nodes=`` argument: ``make()`` builds a fresh object (a generator is
    consumed by the first call that iterates it)."""

    def __init__(self, kind, members):
        self.kind, self.members = kind, members

    def make(self):
        k, m = self.kind, self.members
        if k == "none":
            return None
        if k == "single":
            return m
        if k == "list":
            return list(m)
        if k == "tuple":
            return tuple(m)
        if k == "set":
            return set(m)
        if k == "frozenset":
            return frozenset(m)
        if k == "dict":
            return dict.fromkeys(m, "value")
        if k == "generator":
            return (v for v in m)
        if k == "dict_keys":
            return dict.fromkeys(m).keys()
        if k == "range":
            return range(*m)
        if k == "array":
            return np.array(m)
        if k == "object_array":
            arr = np.empty(len(m), dtype=object)
            arr[:] = m
            return arr
        if k == "array0d":
            return np.array(m)
        if k == "series":
            import pandas as pd

            return pd.Series(m)
        if k == "index":
            import pandas as pd

            return pd.Index(m)
        if k == "graph_nodes":
            return m.build().nodes
        raise AssertionError(k)

    def __repr__(self):
        m = self.members
        return {
            "none": "nodes = None",
            "single": f"nodes = {m!r}",
            "generator": f"nodes = (v for v in {m!r})",
            "dict": f"nodes = dict.fromkeys({m!r}, 'value')",
            "dict_keys": f"nodes = dict.fromkeys({m!r}).keys()",
            "range": f"nodes = range(*{m!r})",
            "object_array": f"nodes = np.array({m!r}, dtype=object)",
            "series": f"nodes = pd.Series({m!r})",
            "index": f"nodes = pd.Index({m!r})",
            "array0d": f"nodes = np.array({m!r})",
            "array": f"nodes = np.array({m!r})",
        }.get(self.kind, f"nodes = {self.kind}({m!r})")


_ABSENT = st.sampled_from([10**30, -12345, "absent", ("no", "de"), frozenset({99}), 2.5, None])
_UNHASHABLE = st.sampled_from([[1], {"a": 1}, {0}, np.array([0, 1])])


@st.composite
def _members(draw, present, absent=True, unhashable=False):
    pool = [st.sampled_from(present)] if present else []
    if absent or not present:
        pool.append(_ABSENT)
    if unhashable:
        pool.append(_UNHASHABLE)
    return draw(st.lists(st.one_of(pool), max_size=8))


@st.composite
def nodes_arguments(draw, G):
    """Every Python form of ``nodes=`` that NetworkX takes (NumPy and pandas
    forms are :func:`array_nodes_arguments`)."""
    present = list(G)
    kinds = [
        "none",
        "list",
        "tuple",
        "set",
        "frozenset",
        "dict",
        "generator",
        "dict_keys",
        "range",
        "absent_single",
        "unhashable",
        "string",
    ]
    if present:
        kinds += ["single"] * 3
    kind = draw(st.sampled_from(kinds))
    if kind == "single":
        return NodesSpec("single", draw(st.sampled_from(present)))
    if kind == "absent_single":
        return NodesSpec("single", draw(_ABSENT))
    if kind == "string":  # a str that is not a node iterates over its characters
        return NodesSpec("single", draw(st.sampled_from(["ab", "v1", "x0", ""])))
    if kind == "range":
        return NodesSpec("range", (draw(st.integers(-2, 5)), draw(st.integers(0, 40))))
    if kind == "unhashable":
        form = draw(st.sampled_from(["list", "generator"]))
        return NodesSpec(form, draw(_members(present, unhashable=True)))
    if kind == "none":
        return NodesSpec("none", None)
    members = draw(_members(present))
    if kind in ("set", "frozenset", "dict", "dict_keys"):
        try:
            set(members)
        except TypeError:  # pragma: no cover
            members = []
    return NodesSpec(kind, members)


@st.composite
def array_nodes_arguments(draw, G):
    """``nodes=`` as NumPy arrays (1-D and 0-d) and pandas Series / Index."""
    present = list(G)
    members = draw(_members(present, absent=draw(st.booleans())))
    kind = draw(st.sampled_from(["array", "object_array", "series", "index", "array0d"]))
    if kind == "array0d":
        scalars = [v for v in present if isinstance(v, (int, float, str, np.number))]
        return NodesSpec("array0d", draw(st.sampled_from(scalars or [0])))
    if kind in ("array", "series", "index"):
        try:
            np.array(members)
            if np.array(members).ndim != 1:
                raise ValueError
        except (ValueError, TypeError):
            kind = "object_array"
    return NodesSpec(kind, members)


# ------------------------------------------------------------- frames


class FrameSpec:
    """``nx.from_pandas_edgelist`` arguments: columns and keywords; ``make()``
    builds a fresh frame (or a dict of lists, for ``as_dict``)."""

    def __init__(self, columns, kwargs, as_dict=False):
        self.columns, self.kwargs, self.as_dict = columns, kwargs, as_dict

    def make(self):
        import pandas as pd

        frame = pd.DataFrame({name: pd.Series(v, dtype=d) for name, (v, d) in self.columns.items()})
        if self.as_dict:
            return {name: list(frame[name]) for name in frame.columns}
        return frame

    def call_kwargs(self):
        kwargs = dict(self.kwargs)
        c = kwargs.get("create_using")
        if isinstance(c, tuple):  # ("instance", cls): a fresh instance per call
            kwargs["create_using"] = c[1]()
        return kwargs

    def __repr__(self):
        cols = ", ".join(f"{n!r}: pd.Series({v!r}, dtype={d!r})" for n, (v, d) in self.columns.items())
        kw = dict(self.kwargs)
        c = kw.get("create_using")
        if isinstance(c, type):
            kw["create_using"] = _Code(f"nx.{c.__name__}")
        elif isinstance(c, tuple):
            kw["create_using"] = _Code(f"nx.{c[1].__name__}()")
        text = ", ".join(f"{k}={v!r}" for k, v in kw.items())
        df = f"pd.DataFrame({{{cols}}})"
        if self.as_dict:
            df = f"{{k: list(v) for k, v in {df}.items()}}"
        return f"nx.from_pandas_edgelist({df}, {text})"


class _Code(str):
    def __repr__(self):
        return str(self)


_LABEL_COLUMNS = {
    "int64": (st.integers(-3, 12), "int64"),
    "uint8": (st.integers(0, 12), "uint8"),
    "float64": (st.sampled_from([0.0, 1.0, 1.5, -2.0, 3.25, 1e300]), "float64"),
    "bool": (st.booleans(), "bool"),
    "string": (st.text(alphabet="abc", max_size=2), "object"),
    "mixed": (
        st.one_of(
            st.integers(0, 5),
            st.text(alphabet="ab", max_size=2),
            st.tuples(st.integers(0, 2)),
            st.sampled_from(COLLISIONS[:6]),
        ),
        "object",
    ),
    "huge": (st.integers(2**63, 2**63 + 5) | st.integers(-3, 3), "object"),
}
_ATTR_COLUMNS = {
    "weight": (st.integers(-5, 5), "int64"),
    "cost": (st.floats(-2, 2) | st.just(NAN), "float64"),
    "color": (st.sampled_from(["red", "blue", ""]), "object"),
    "flag": (st.booleans(), "bool"),
}


@st.composite
def frames(
    draw,
    label_kinds=tuple(_LABEL_COLUMNS),
    mixed_dtypes=False,
    create_using_instance=False,
    as_dict=False,
    missing_column=False,
    datetime_labels=False,
):
    """FrameSpec: source and target columns of one label kind (``mixed_dtypes``:
    of two different kinds), attribute columns, edge_attr / create_using /
    edge_key in NetworkX's forms, and the inputs of the other flags."""
    rows = draw(st.integers(0, 25))
    columns = {}
    if datetime_labels:
        values = st.integers(0, 5).map(lambda d: np.datetime64("2024-01-01") + np.timedelta64(d, "D"))
        label_values, dtype = values, "datetime64[ns]"
        columns["source"] = (draw(st.lists(label_values, min_size=rows, max_size=rows)), dtype)
        columns["target"] = (draw(st.lists(label_values, min_size=rows, max_size=rows)), dtype)
    else:
        kinds = [draw(st.sampled_from(label_kinds))] * 2
        if mixed_dtypes:
            kinds[1] = draw(st.sampled_from([k for k in label_kinds if k != kinds[0]]))
        drawn = [draw(st.lists(_LABEL_COLUMNS[kind][0], min_size=rows, max_size=rows)) for kind in kinds]
        both = apart_from_tuples(drawn[0] + drawn[1])
        for end, kind, values in zip(("source", "target"), kinds, (both[:rows], both[rows:])):
            columns[end] = (values, _LABEL_COLUMNS[kind][1])
    attrs = draw(st.lists(st.sampled_from(sorted(_ATTR_COLUMNS)), unique=True, max_size=3))
    for name in attrs:
        strat, dtype = _ATTR_COLUMNS[name]
        columns[name] = (draw(st.lists(strat, min_size=rows, max_size=rows)), dtype)
    kwargs = {}
    cls = draw(st.sampled_from((None,) + CLASSES))
    if cls is not None:
        kwargs["create_using"] = ("instance", cls) if create_using_instance else cls
    if cls is not None and cls.is_multigraph(cls()) and draw(st.booleans()):
        columns["key"] = (draw(st.lists(st.integers(0, 2), min_size=rows, max_size=rows)), "int64")
        kwargs["edge_key"] = "key"
    choices = [None, True] + attrs + ([attrs] if attrs else []) + ([tuple(attrs)] if attrs else [])
    edge_attr = draw(st.sampled_from(choices))
    if edge_attr is not None:
        kwargs["edge_attr"] = edge_attr
    if missing_column:
        which = draw(st.sampled_from(["source", "target", "edge_attr"]))
        kwargs[which] = "nope" if which != "edge_attr" else draw(st.sampled_from(["nope", ["nope"]]))
    return FrameSpec(columns, kwargs, as_dict=as_dict)
