"""Hooks of the documentation site (``mkdocs.yml``): what the site shows that is
made from the code and the data when it is built, never committed:

- the home page: the README;
- the list of the functions NetworkX sends to the backend in ``usage.md``: from
  ``nx_tricount.metadata.catalog.FUNCTIONS``;
- the settings reference in ``configuration.md``: from the configuration class,
  ``nx_tricount.metadata.config.TricountConfig`` (its fields, their defaults and its
  documented attributes) and the environment variables its loader reads;
- one page per algorithm: its section of ``algorithms.md``, under what
  ``nx_tricount.metadata.catalog`` declares of it; the site's ``algorithms.md`` keeps the
  other sections and a table of the algorithms in their place;
- the benchmark figures: drawn by ``benchmark_plots.py`` from ``benchmarks.json``.
"""

import dataclasses
import importlib.util
import inspect
import json
import re
from pathlib import Path

from mkdocs.exceptions import PluginError
from mkdocs.structure.files import File

import nx_tricount  # noqa: F401  (imports NetworkX first, which registers the backend)
from nx_tricount.metadata import catalog
from nx_tricount.metadata import config as settings

HERE = Path(__file__).resolve().parent
DOCS = HERE.parent
README = DOCS.parent / "README.md"
ALGORITHMS_PAGE = "algorithms.md"


# --- algorithms.md, one page per algorithm --------------------------------------
def _sections(markdown):
    """``(heading, text)`` of each level-2 section of ``markdown``; the text
    before the first heading comes first, with the heading None."""
    sections, heading, lines, fenced = [], None, [], False
    for line in markdown.splitlines(keepends=True):
        if line.startswith("```"):
            fenced = not fenced
        if not fenced and line.startswith("## "):
            sections.append((heading, "".join(lines)))
            heading, lines = line[3:].strip(), []
        else:
            lines.append(line)
    sections.append((heading, "".join(lines)))
    return sections


def _algorithms_of(heading):
    """The catalog's algorithms a heading such as ``merge (Polak)`` or ``edge and
    vertex (...)`` is about; none for the other sections."""
    if heading is None:
        return []
    names = re.split(r",\s*|\s+and\s+", heading.split(" (")[0].strip())
    return names if all(name in catalog.ALGORITHMS for name in names) else []


def _algorithm_sections():
    """``(heading, names, uri, text)`` of each algorithm section of algorithms.md."""
    found = []
    for heading, text in _sections((DOCS / ALGORITHMS_PAGE).read_text()):
        names = _algorithms_of(heading)
        if names:
            found.append((heading, names, f"algorithms/{'-and-'.join(names)}.md", text))
    return found


def _parameters(algorithm):
    return (
        ", ".join(
            f"`{algorithm.name}_{p.keyword}` (int ≥ {p.smallest}): {p.help}" for p in algorithm.parameters
        )
        or "none"
    )


def _algorithm_page(heading, names, text):
    """The page of one algorithm section: what the catalog declares, then the
    section, its headings one level up and its relative links from one folder down."""
    rows = "\n".join(
        f'| `algorithm="{name}"` | {a.help} | `{a.orientation}`, `{a.ordering}` | {_parameters(a)} |'
        for name, a in ((name, catalog.ALGORITHMS[name]) for name in names)
    )
    body, fenced = [], False
    for line in text.splitlines(keepends=True):
        if line.startswith("```"):
            fenced = not fenced
        body.append(line[1:] if not fenced and line.startswith("###") else line)
    body = re.sub(r"\]\((?![a-z]+:|#|/)", "](../", "".join(body))
    return (
        f"# {heading}\n\n"
        "| setting | idea | designed for (orientation, ordering) | GPU kernel parameters |\n"
        "|---|---|---|---|\n"
        f"{rows}\n\n{body}"
    )


def _algorithm_table(sections):
    """The catalog's algorithms as a table linking to their pages."""
    pages = {name: uri for _, names, uri, _ in sections for name in names}
    lines = [
        "## The algorithms\n",
        "Each has a page of its own; the table is the catalog (`nx_tricount/metadata/catalog.py`).\n",
        "| algorithm | idea | designed for (orientation, ordering) | GPU kernel parameters |",
        "|---|---|---|---|",
    ]
    for name, a in catalog.ALGORITHMS.items():
        label = f"[`{name}`]({pages[name]})" if name in pages else f"`{name}`"
        lines.append(f"| {label} | {a.help} | `{a.orientation}`, `{a.ordering}` | {_parameters(a)} |")
    return "\n".join(lines) + "\n\n"


def _overview(markdown, sections):
    """algorithms.md without its algorithm sections, the table in their place."""
    kept, table = [], _algorithm_table(sections)
    for heading, text in _sections(markdown):
        if _algorithms_of(heading):
            kept.append(table)
            table = ""
        else:
            kept.append(text if heading is None else f"## {heading}\n{text}")
    return "".join(kept)


# --- configuration.md, the settings reference -----------------------------------
def _attributes(doc):
    """``name -> (kind, description lines)`` of a NumPy-style Attributes section."""
    lines = inspect.cleandoc(doc).splitlines()
    entries, name = {}, None
    for line in lines[lines.index("Attributes") + 2 :]:
        if line and not line.startswith(" "):
            if " : " not in line:
                break  # the next section
            name, kind = line.split(" : ", 1)
            entries[name] = (kind.strip(), [])
        elif line.strip() and name is not None:
            entries[name][1].append(line.strip())
    return entries


def _markdown(text):
    """reST inline literals as Markdown code."""
    return text.replace("``", "`")


def _reads_environment(name, default):
    """Whether the configuration's loader reads ``NX_TRICOUNT_<NAME>``: a value
    it cannot accept is then reported, or a value it can changes the setting."""
    variable = f"NX_TRICOUNT_{name.upper()}"
    try:
        loaded = settings.config_from_environment({variable: "not a value of any setting"})
        settings.check_environment(loaded)
    except ValueError:
        return True
    return loaded[name] != default


def settings_reference():
    """The Markdown reference of every setting of ``TricountConfig``."""
    fields = {f.name: f for f in dataclasses.fields(settings.TricountConfig)}
    documented = _attributes(settings.TricountConfig.__doc__)
    missing = sorted(set(fields) - set(documented))
    if missing:
        raise PluginError(f"TricountConfig's docstring documents no {', '.join(missing)}")
    table = ["| setting | accepted | default | environment variable |", "|---|---|---|---|"]
    details = []
    for name, field in fields.items():
        kind, description = documented[name]
        if kind.startswith("{"):
            accepted = ", ".join(f"`{value.strip(' ' + chr(39))}`" for value in kind[1:-1].split(","))
        elif kind.startswith("default"):  # no type given: the annotation's
            accepted = f"`{inspect.formatannotation(field.type)}`"
        else:
            accepted = _markdown(kind)
        variable = f"`NX_TRICOUNT_{name.upper()}`" if _reads_environment(name, field.default) else "—"
        table.append(f"| [`{name}`](#{name}) | {accepted} | `{field.default!r}` | {variable} |")
        values = [line for line in description if line.startswith('``"')]
        prose = [line for line in description if not line.startswith('``"')]
        details.append(f"### `{name}`\n\n" + _markdown(" ".join(prose)) + "\n")
        details += [f"- {_markdown(line)}" for line in values]
        details.append("")
    settings.config_from_environment()  # this process's own environment again
    return "\n".join(table) + "\n\n" + "\n".join(details)


def functions_list():
    """The NetworkX functions the backend implements, as a Markdown list."""
    return "\n".join(f"- `nx.{name}`" for name in catalog.FUNCTIONS) + "\n"


# --- the benchmark figures ------------------------------------------------------
def _figures():
    """File name -> PNG bytes of the benchmark figures (benchmark_plots.py)."""
    spec = importlib.util.spec_from_file_location("benchmark_plots", HERE / "benchmark_plots.py")
    plots = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(plots)
    return plots.figures(json.loads((DOCS / "benchmarks.json").read_text()))


# --- mkdocs events ----------------------------------------------------------------
#: Page -> (its line that generated Markdown replaces, the function that makes it).
MARKERS = {
    "configuration.md": (
        "<!-- settings reference: generated from nx_tricount.metadata.config by docs/mkdocs/hooks.py -->",
        settings_reference,
    ),
    "usage.md": (
        "<!-- functions: generated from nx_tricount.metadata.catalog by docs/mkdocs/hooks.py -->",
        functions_list,
    ),
}


def on_config(config):
    """Add the algorithm pages to the Algorithms section of the navigation."""
    for entry in config["nav"]:
        if isinstance(entry, dict) and "Algorithms" in entry:
            entry["Algorithms"] += [{heading: uri} for heading, _, uri, _ in _algorithm_sections()]
            return config
    raise PluginError("mkdocs.yml's nav has no Algorithms section for the algorithm pages")


def on_files(files, config):
    """The generated pages and figures, beside the Markdown files of docs/."""
    files.append(File.generated(config, "index.md", content=README.read_text()))
    for heading, names, uri, text in _algorithm_sections():
        files.append(File.generated(config, uri, content=_algorithm_page(heading, names, text)))
    for name, png in _figures().items():
        files.append(File.generated(config, f"figures/{name}", content=png))
    return files


def on_page_markdown(markdown, page, config, files):
    """The generated Markdown in place of the markers of configuration.md and
    usage.md; algorithms.md without the sections that have pages of their own."""
    uri = page.file.src_uri
    if uri in MARKERS:
        marker, generate = MARKERS[uri]
        if marker not in markdown:
            raise PluginError(f"{uri} has no line {marker!r}")
        return markdown.replace(marker, generate())
    if uri == ALGORITHMS_PAGE:
        return _overview(markdown, _algorithm_sections())
    return markdown
