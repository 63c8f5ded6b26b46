"""Draw the benchmark figures of the documentation site from docs/benchmarks.json.

The site's build calls :func:`figures` (``hooks.py``) and serves the images
without writing them into the repository; to look at them alone::

    python docs/mkdocs/benchmark_plots.py OUTPUT_FOLDER
"""

import argparse
import io
import json
from pathlib import Path

import matplotlib

matplotlib.use("Agg")  # no display: images only
import matplotlib.pyplot as plt  # noqa: E402

DATA = Path(__file__).resolve().parents[1] / "benchmarks.json"
COLORS = ["#3f51b5", "#ff9800", "#9e9e9e", "#4caf50"]


def _grouped_bars(ax, rows, labels, series, unit):
    """One group of bars per row (log scale), one bar per series, each labelled."""
    width = 0.8 / len(series)
    for i, name in enumerate(series):
        values = [row[name] for row in rows]
        positions = [x + (i - (len(series) - 1) / 2) * width for x in range(len(rows))]
        bars = ax.bar(positions, values, width, label=name, color=COLORS[i % len(COLORS)])
        ax.bar_label(bars, labels=[f"{v:g}" for v in values], fontsize=6, rotation=90, padding=2)
    ax.set_xticks(range(len(rows)), labels)
    ax.set_yscale("log")
    ax.set_ylabel(unit)
    ax.margins(y=0.25)
    ax.legend(fontsize=8)


def _caption(table):
    return f"{table['machine']}, {table['date']}, commit {table['commit']}"


def gpu_kernels(table):
    fig, ax = plt.subplots(figsize=(8, 4))
    rows = table["rows"]
    _grouped_bars(
        ax, rows, [r["graph"] for r in rows], ["tricount", "published codes", "nx-cugraph"], table["unit"]
    )
    ax.set_title(f"GPU kernels: {_caption(table)}", fontsize=9)
    return fig


def gpu_end_to_end(table):
    fig, ax = plt.subplots(figsize=(8, 4))
    rows = table["rows"]
    labels = [f"{r['graph']}\n{r['algorithm']}" for r in rows]
    totals = [r["end to end"] for r in rows]
    shares = [r["preprocess"] / r["end to end"] for r in rows]
    ax.bar(labels, [100 * s for s in shares], color=COLORS[1], label="preprocessing")
    ax.bar(
        labels,
        [100 * (1 - s) for s in shares],
        bottom=[100 * s for s in shares],
        color=COLORS[0],
        label="count (kernel, launches, result)",
    )
    for x, total in enumerate(totals):
        ax.text(x, 101, f"{total:g} ms", ha="center", va="bottom", fontsize=7)
    ax.set_ylim(0, 112)
    ax.set_ylabel("% of the end-to-end time")
    ax.tick_params(axis="x", labelsize=7)
    ax.legend(fontsize=8, loc="lower right")
    ax.set_title(f"End to end from edges in GPU memory: {_caption(table)}", fontsize=9)
    return fig


def cpu(table):
    results = list(dict.fromkeys(r["result"] for r in table["rows"]))
    fig, axes = plt.subplots(1, len(results), figsize=(9, 4), sharey=True)
    for ax, result in zip(axes, results):
        rows = [r for r in table["rows"] if r["result"] == result]
        _grouped_bars(
            ax,
            rows,
            [r["graph"] for r in rows],
            ["tricount", "networkit", "igraph", "NetworkX"],
            table["unit"] if ax is axes[0] else "",
        )
        ax.set_title(result, fontsize=9)
    fig.suptitle(f"CPU: {_caption(table)}", fontsize=9)
    return fig


#: File name -> (section of benchmarks.json, drawing function).
FIGURES = {
    "gpu-kernels.png": ("gpu_kernels", gpu_kernels),
    "gpu-end-to-end.png": ("gpu_end_to_end", gpu_end_to_end),
    "cpu.png": ("cpu", cpu),
}


def figures(data):
    """File name -> PNG bytes of every figure, from the parsed benchmarks.json."""
    drawn = {}
    for name, (section, draw) in FIGURES.items():
        fig = draw(data[section])
        fig.tight_layout()
        buffer = io.BytesIO()
        fig.savefig(buffer, format="png", dpi=120, metadata={"Software": None})
        plt.close(fig)
        drawn[name] = buffer.getvalue()
    return drawn


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("output", type=Path, help="folder for the PNG files")
    args = parser.parse_args()
    args.output.mkdir(parents=True, exist_ok=True)
    for name, png in figures(json.loads(DATA.read_text())).items():
        (args.output / name).write_bytes(png)
        print(args.output / name)


if __name__ == "__main__":
    main()
