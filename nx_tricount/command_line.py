"""The command line of ``python -m nx_tricount``: its options, and its inputs
checked so that a bad one ends in one line of error (argparse's, exit status 2).

Every setting of ``nx.config.backends.tricount`` is an option, derived from the
configuration's declaration (``TricountConfig``), so that a new setting needs
no edit here.
"""

import argparse
import math
import os
import typing
import warnings

import networkx as nx
import numpy as np

from .metadata.config import CHOICES, KERNEL_PARAMETERS, SCALE_OUT, TricountConfig

__all__ = ["DEFAULT_BUDGET", "RMAT_EDGE_FACTOR", "job_parser", "configured", "read_edges"]

#: Default --networkx-budget: the longest NetworkX reference run, in seconds.
DEFAULT_BUDGET = 10.0
#: Edges per node of the R-MAT graphs (Graph500's edge factor).
RMAT_EDGE_FACTOR = 16
#: Bytes the job holds per R-MAT edge row: the nx.Graph's dicts (about 200,
#: measured on scales 12 and 14) beside the edge arrays and the conversion.
BYTES_PER_RMAT_ROW = 250
#: The declared type of each setting.
_DECLARED = TricountConfig.__annotations__


def job_parser(description):
    """The job's ``argparse`` parser, with ``description`` under its usage."""
    parser = argparse.ArgumentParser(
        prog="python -m nx_tricount",
        description=description,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    graph = parser.add_mutually_exclusive_group()
    graph.add_argument(
        "--edges",
        metavar="FILE",
        help="a text edge list, one 'u v' per line ('#' and '%%' comments; .gz read "
        "too); labels are ints, or else all of them are read as strings",
    )
    graph.add_argument(
        "--rmat",
        type=_rmat_scale,
        metavar="SCALE",
        help=f"a seeded Graph500 R-MAT graph of 2**SCALE nodes and {RMAT_EDGE_FACTOR} "
        "edges per node (up to the scale this machine's memory holds)",
    )
    parser.add_argument(
        "--networkx-budget",
        type=_seconds,
        default=DEFAULT_BUDGET,
        metavar="SECONDS",
        help="skip a NetworkX reference run estimated to take longer "
        f"(default {DEFAULT_BUDGET:g}; 0 skips them all, inf runs them all)",
    )
    _add_settings(parser)
    return parser


def _add_settings(parser):
    """An option ``--<setting>`` for every setting of the configuration."""
    group = parser.add_argument_group(
        "backend settings",
        "nx.config.backends.tricount for the run; a setting not given keeps its value\n"
        "(its default, or its NX_TRICOUNT_<SETTING> variable). Values as words: none,\n"
        "true, false, 20GB; a list of GPU ids as 0,1",
    )
    for key in _DECLARED:
        option = dict(dest=key, default=argparse.SUPPRESS)
        if key in CHOICES:
            option.update(choices=CHOICES[key], help=f"default {CHOICES[key][0]}")
        elif key in KERNEL_PARAMETERS:
            algorithm, parameter = KERNEL_PARAMETERS[key]
            option.update(
                metavar="INT",
                help=f"{algorithm} on the GPU: {parameter.help}; an int, or none (the kernel chooses)",
            )
        else:
            default, text = SCALE_OUT[key]
            option.update(metavar=key.upper(), help=f"{text} (default {default})")
        option["help"] = option["help"].replace("%", "%%")
        group.add_argument("--" + key.replace("_", "-"), **option)


def _setting_value(key, text):
    """A setting's value from its option's text, as far as the setting's declared
    type goes: ``none``, an int, ``true`` or ``false``, a comma-separated list of
    ints, else the text itself (the configuration then accepts it or says why not)."""
    kinds = typing.get_args(_DECLARED[key]) or (_DECLARED[key],)
    word = text.strip().lower()
    if type(None) in kinds and word == "none":
        return None
    if bool in kinds and word in ("true", "false"):
        return word == "true"
    try:
        numbers = [int(part) for part in text.split(",")]
    except ValueError:
        return text
    if int in kinds and len(numbers) == 1:
        return numbers[0]
    return numbers if list in kinds else text


def configured(parser, args):
    """``nx.config.backends.tricount`` with the settings given as options, to be
    used as a context (``with configured(parser, args): ...``); a value the
    configuration refuses ends the job with the configuration's message."""
    given = {
        key: getattr(args, key) if key in CHOICES else _setting_value(key, getattr(args, key))
        for key in _DECLARED
        if hasattr(args, key)
    }
    for key, value in given.items():
        try:
            TricountConfig(**{key: value})  # checked in a configuration of its own
        except ValueError as error:
            parser.error(f"argument --{key.replace('_', '-')}: {error}")
    return nx.config.backends.tricount(**given)


def _memory_bytes():
    """This machine's memory in bytes, or None where the system does not say."""
    try:
        return os.sysconf("SC_PHYS_PAGES") * os.sysconf("SC_PAGE_SIZE")
    except (AttributeError, ValueError, OSError):
        return None


def _rmat_scale(text):
    """``--rmat``'s SCALE: an int from 1 to the largest whose graph this machine's memory holds."""
    memory = _memory_bytes()
    row_bytes = BYTES_PER_RMAT_ROW * RMAT_EDGE_FACTOR
    largest = 40 if memory is None else int(math.log2(memory / row_bytes))
    try:
        scale = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"SCALE must be an int from 1 to {largest}, got {text!r}") from None
    if scale < 1 or (scale > largest and memory is None):
        raise argparse.ArgumentTypeError(f"SCALE must be an int from 1 to {largest}, got {scale}")
    if scale > largest:
        raise argparse.ArgumentTypeError(
            f"R-MAT scale {scale} needs about {row_bytes * 2.0**scale / 1e9:,.0f} GB of memory "
            f"for its nx.Graph, and this machine has {memory / 1e9:,.0f} GB: SCALE from 1 to "
            f"{largest} fits"
        )
    return scale


def _seconds(text):
    """``--networkx-budget``: a number of seconds >= 0, or inf."""
    try:
        seconds = float(text)
    except ValueError:
        seconds = math.nan
    if not seconds >= 0:  # NaN too
        raise argparse.ArgumentTypeError(f"SECONDS must be a number >= 0 or inf, got {text!r}")
    return seconds


def read_edges(parser, path):
    """The two label columns of an edge-list file: ints, or strings where some
    label is not an int (as NetworkX would read the lines' words)."""
    options = dict(comments=("#", "%"), ndmin=2, usecols=(0, 1))
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", UserWarning)  # an empty file: said below
            try:
                edges = np.loadtxt(path, dtype=np.int64, **options)
            except ValueError:
                edges = np.loadtxt(path, dtype=str, **options)
    except (OSError, EOFError, ValueError) as error:
        parser.error(f"argument --edges: cannot read {path} as 'u v' lines: {error}")
    if edges.shape[0] == 0:
        parser.error(f"argument --edges: {path} has no edges")
    return edges[:, 0], edges[:, 1]
