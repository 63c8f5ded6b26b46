"""The backend's configuration: ``nx.config.backends.tricount``.

Every setting, its accepted values and its default derive from
:mod:`nx_tricount.metadata.catalog`. NetworkX builds the object while ``import networkx``
runs (through ``_info.get_info``), so this module imports nothing but the
standard library, NetworkX's ``Config`` base class and the catalog. A bad value is
refused at once when assigned; a bad ``NX_TRICOUNT_<KEY>`` variable is refused at
the first count (:func:`config_from_environment`).
"""

import numbers
import os
import re
from fractions import Fraction

from networkx.utils.configs import Config

from .catalog import (
    ALGORITHMS,
    DEVICES,
    MAX_PARTITIONS,
    ORDERINGS,
    ORIENTATIONS,
    PARTITIONINGS,
    REGIMES,
    SCALE_OUT,
    kernel_parameters,
)

__all__ = [
    "TricountConfig",
    "CHOICES",
    "KERNEL_PARAMETERS",
    "config_from_environment",
    "check_environment",
    "check_setting",
    "check_scale_out",
    "memory_bytes",
    "autoconfig_requested",
]

#: Accepted values of each string-valued setting; the first is the default.
CHOICES = {
    "algorithm": ("auto", *ALGORITHMS),
    "orientation": ("auto", *ORIENTATIONS),
    "ordering": ("auto", *ORDERINGS),
    "device": ("auto", *DEVICES),
}

#: Kernel-parameter setting -> (algorithm, KernelParameter); None lets the kernel choose.
KERNEL_PARAMETERS = kernel_parameters()


def _integer(value):
    """``value`` as a Python int if it is an integer (NumPy's too) but not a bool, else None."""
    if isinstance(value, numbers.Integral) and not isinstance(value, bool):
        return int(value)
    return None


def check_parameter(key, value):
    """Return ``value`` (as an int) if it is accepted for kernel parameter ``key``, else raise."""
    parameter = KERNEL_PARAMETERS[key][1]
    if value is None:
        return value
    number = _integer(value)
    if number is None or not parameter.smallest <= number <= parameter.largest:
        raise ValueError(
            f"Invalid tricount {key} {value!r}; accepted values are None (the kernel "
            f"chooses) or an int >= {parameter.smallest} and <= {parameter.largest}"
        )
    return number


def check_choice(key, value):
    """Return ``value`` if it is accepted for setting ``key``, else raise ValueError."""
    accepted = CHOICES[key]
    if not (isinstance(value, str) and value in accepted):
        raise ValueError(
            f"Invalid tricount {key} {value!r}; accepted values are " + ", ".join(repr(v) for v in accepted)
        )
    return value


_UNITS = {
    "": 1,
    "b": 1,
    "kb": 10**3,
    "mb": 10**6,
    "gb": 10**9,
    "tb": 10**12,
    "kib": 2**10,
    "mib": 2**20,
    "gib": 2**30,
    "tib": 2**40,
}

#: A size: decimal digits with an optional fraction, then an optional unit.
_SIZE = re.compile(r"(?P<number>[0-9]+(?:\.[0-9]*)?|\.[0-9]+)\s*(?P<unit>[a-z]*)", re.ASCII)


def memory_bytes(value):
    """Bytes of a ``memory_limit`` (None stays None).

    An int is a count of bytes. A string is a whole number of bytes
    (``"4096"``, ``"4096B"``) or a number and a unit (``"20GB"``,
    ``"1.5 GiB"``, ``"512MiB"``; case-insensitive), rounded down to whole
    bytes. Either must come to at least one byte.

    Raises
    ------
    ValueError
        Any other value, stating this rule.
    """
    if value is None:
        return None
    number = _integer(value)
    if number is not None and number >= 1:
        return number
    match = _SIZE.fullmatch(value.strip().lower()) if isinstance(value, str) else None
    if match and match["unit"] in _UNITS:
        # Exact decimal arithmetic: a float would make 4.35MB 4,349,999 bytes.
        amount, scale = Fraction(match["number"]), _UNITS[match["unit"]]
        size = amount * scale
        if size >= 1 and (scale > 1 or size.denominator == 1):  # no fractions of a byte
            return int(size)
    raise ValueError(
        f"Invalid tricount memory_limit {value!r}; accepted values are None, an int >= 1 "
        "(bytes), or a string of a whole number of bytes ('4096') or of a number and a unit, "
        "kB, MB, GB, TB (powers of 1000) or KiB, MiB, GiB, TiB (powers of 1024), such as "
        "'20GB', '1.5GiB' or '512 MiB', which is rounded down to whole bytes and must come "
        "to at least 1 byte"
    )


def _check_partitions(value):
    if value is None:
        return value
    number = _integer(value)
    if number is not None and 1 <= number <= MAX_PARTITIONS:
        return number
    raise ValueError(
        f"Invalid tricount partitions {value!r}; accepted values are None (as the memory "
        f"limit requires) or an int >= 1 and <= {MAX_PARTITIONS} (parts per side)"
    )


def _check_partitioning(value):
    if isinstance(value, str) and value in PARTITIONINGS:
        return value
    raise ValueError(
        f"Invalid tricount partitioning {value!r}; accepted values are "
        + ", ".join(repr(v) for v in PARTITIONINGS)
    )


def _check_regime(value):
    if isinstance(value, str) and value in REGIMES:
        return value
    raise ValueError(
        f"Invalid tricount regime {value!r}; accepted values are " + ", ".join(repr(v) for v in REGIMES)
    )


def _check_memory_limit(value):
    size = memory_bytes(value)
    return value if isinstance(value, str) else size


def _check_devices(value):
    if isinstance(value, str) and value in ("auto", "all"):
        return value
    if isinstance(value, (list, tuple)) and value:
        ids = [_integer(d) for d in value]
        if all(i is not None and i >= 0 for i in ids):
            return ids
    raise ValueError(
        f"Invalid tricount devices {value!r}; accepted values are 'auto' (the current GPU), "
        "'all', or a non-empty list of GPU ids (ints >= 0; an id listed twice gets two workers)"
    )


def _check_distributed(value):
    if value is None or (isinstance(value, str) and value == "dask"):
        return value
    raise ValueError(f"Invalid tricount distributed {value!r}; accepted values are None and 'dask'")


def _check_progress(value):
    if value is None or isinstance(value, bool):
        return value
    raise ValueError(f"Invalid tricount progress {value!r}; accepted values are None, True and False")


_SCALE_OUT_CHECKS = {
    "partitions": _check_partitions,
    "partitioning": _check_partitioning,
    "memory_limit": _check_memory_limit,
    "regime": _check_regime,
    "devices": _check_devices,
    "distributed": _check_distributed,
    "progress": _check_progress,
}


def check_scale_out(key, value):
    """Return ``value`` if it is accepted for scale-out setting ``key``, else raise ValueError."""
    return _SCALE_OUT_CHECKS[key](value)


def check_setting(key, value):
    """Return the value to store if ``value`` is accepted for setting ``key``, else raise ValueError."""
    if key in CHOICES:
        return check_choice(key, value)
    if key in KERNEL_PARAMETERS:
        return check_parameter(key, value)
    return check_scale_out(key, value)


def _attributes_doc():
    """The Attributes section of :class:`TricountConfig`, from the catalog."""
    lines = ["Attributes", "----------"]
    tables = {
        "algorithm": {name: a.help for name, a in ALGORITHMS.items()},
        "orientation": ORIENTATIONS,
        "ordering": ORDERINGS,
        "device": DEVICES,
    }
    for key, table in tables.items():
        lines.append(f"{key} : {{{', '.join(repr(v) for v in CHOICES[key])}}}")
        lines.append('    ``"auto"`` (the default) chooses per graph and device.')
        lines += [f'    ``"{name}"``: {text}.' for name, text in table.items()]
    for key, (algorithm, parameter) in KERNEL_PARAMETERS.items():
        lines.append(f"{key} : int from {parameter.smallest} to {parameter.largest}, or None")
        lines.append(f"    ``{algorithm}`` on the GPU: {parameter.help}; None: the kernel chooses.")
    for key, (default, text) in SCALE_OUT.items():
        lines.append(f"{key} : default {default!r}")
        lines.append(f"    {text[0].upper()}{text[1:]}.")
    return "\n    ".join(lines)


def _unknown_setting(self, key):
    """NetworkX's error for a name that is not a setting, naming the accepted ones."""
    return AttributeError(
        f"Invalid config name: {key!r}; the tricount settings are "
        + ", ".join(repr(name) for name in self.__dataclass_fields__)
    )


def _setattr(self, key, value):
    """NetworkX's strict ``Config.__setattr__``, naming the accepted settings."""
    if key not in self.__dataclass_fields__:
        raise _unknown_setting(self, key)
    Config.__setattr__(self, key, value)


def _on_setattr(self, key, value):
    """Validate a setting as it is assigned (NetworkX's ``Config`` hook). A block
    ``with config(...)`` checks every name and value here before it sets any."""
    if key not in self.__dataclass_fields__:
        raise _unknown_setting(self, key)
    return check_setting(key, value)


#: The settings and their defaults: the first choice of each, None for kernel parameters.
_DEFAULTS = {
    **{key: values[0] for key, values in CHOICES.items()},
    **{key: None for key in KERNEL_PARAMETERS},
    **{key: default for key, (default, _) in SCALE_OUT.items()},
}

# Built from the catalog, so that a new algorithm or kernel parameter needs no edit here.
TricountConfig = type(
    "TricountConfig",
    (Config,),
    {
        "__module__": __name__,
        "__doc__": f"Configuration of the ``tricount`` backend.\n\n    {_attributes_doc()}\n    ",
        "__annotations__": {
            **{key: str for key in CHOICES},
            **{key: int | None for key in KERNEL_PARAMETERS},
            "partitions": int | None,
            "partitioning": str,
            "memory_limit": int | str | None,
            "regime": str,
            "devices": str | list,
            "distributed": str | None,
            "progress": bool | None,
        },
        **_DEFAULTS,
        "__setattr__": _setattr,
        "_on_setattr": _on_setattr,
    },
)


#: Texts of a flag (``NX_TRICOUNT_PROGRESS``, ``NX_TRICOUNT_AUTOCONFIG``), case-insensitive.
_FLAGS = {
    **dict.fromkeys(("1", "true", "yes", "on"), True),
    **dict.fromkeys(("0", "false", "no", "off"), False),
}
_TRUE_TEXTS, _FALSE_TEXTS = "1, true, yes or on", "0, false, no or off"

_INTEGER_TEXT = re.compile(r"[+-]?[0-9]+", re.ASCII)

#: How an ``NX_TRICOUNT_<KEY>`` variable writes the values of a setting, where
#: not as the values themselves.
_TEXT_FORMS = {
    "devices": "'auto', 'all', or GPU ids separated by commas, such as '0,1'",
    "progress": f"{_TRUE_TEXTS} (True), {_FALSE_TEXTS} (False), or none (None), in any case",
}

#: Setting (or ``"autoconfig"``) -> why its ``NX_TRICOUNT_<KEY>`` variable was not
#: accepted, as found by the last :func:`config_from_environment`;
#: :func:`check_environment` raises it.
ENVIRONMENT_ERRORS = {}


def _value_from_text(key, text):
    """The value of setting ``key`` that the text of its variable stands for; a
    text that stands for no value is returned as it is, for the check to refuse."""
    lowered = text.lower()
    if lowered == "none" and _DEFAULTS[key] is None:  # the settings that take None
        return None
    if key == "progress":
        return _FLAGS.get(lowered, text)
    if key in KERNEL_PARAMETERS or key == "partitions":
        return int(text) if _INTEGER_TEXT.fullmatch(text) else text
    if key == "devices" and lowered not in ("auto", "all"):
        ids = [part.strip() for part in text.split(",")]
        return [int(i) for i in ids] if all(_INTEGER_TEXT.fullmatch(i) for i in ids) else text
    return text if key == "memory_limit" else lowered


def _environment_error(name, raw, problem, forms):
    return (
        f"environment variable {name}={raw!r} is not accepted: {problem}. {name} takes "
        f"{forms}. Unset it or give it an accepted value."
    )


def config_from_environment(environ=os.environ):
    """Build the default configuration, taking ``NX_TRICOUNT_<KEY>`` variables.

    Never raises: this runs inside ``import networkx``, where an exception
    would leave the backend with an empty configuration. An empty variable
    counts as unset. A value that is not accepted leaves the setting at its
    default and is recorded; the first count raises it (:func:`check_environment`,
    called by ``make_plan`` and ``should_run``). So is a value of
    ``NX_TRICOUNT_AUTOCONFIG`` that is not a flag.
    """
    values, errors = {}, {}
    for key in _DEFAULTS:
        name = f"NX_TRICOUNT_{key.upper()}"
        text = environ.get(name, "").strip()
        if not text:
            continue
        try:
            values[key] = check_setting(key, _value_from_text(key, text))
        # Any exception here would empty the configuration; the first count raises it.
        except Exception as exc:  # noqa: BLE001
            none = "; 'none' for None" if _DEFAULTS[key] is None else ""
            forms = _TEXT_FORMS.get(key, f"these values as text (in any case{none})")
            errors[key] = _environment_error(name, environ[name], exc, forms)
    autoconfig = environ.get("NX_TRICOUNT_AUTOCONFIG", "").strip().lower()
    if autoconfig and autoconfig not in _FLAGS:
        errors["autoconfig"] = _environment_error(
            "NX_TRICOUNT_AUTOCONFIG",
            environ["NX_TRICOUNT_AUTOCONFIG"],
            "it is not a flag",
            f"{_TRUE_TEXTS} (put tricount first in NetworkX's backend priority), or "
            f"{_FALSE_TEXTS}, in any case",
        )
    ENVIRONMENT_ERRORS.clear()
    ENVIRONMENT_ERRORS.update(errors)
    return TricountConfig(**values)


def autoconfig_requested(environ=os.environ):
    """Whether ``NX_TRICOUNT_AUTOCONFIG`` puts ``tricount`` first in NetworkX's
    backend priority: a true flag, or a value that is no flag, so that the first
    call, through the backend, raises its error (:func:`config_from_environment`)."""
    text = environ.get("NX_TRICOUNT_AUTOCONFIG", "").strip().lower()
    return bool(text) and _FLAGS.get(text, True)


def check_environment(config, overrides=None):
    """Raise the error of a rejected ``NX_TRICOUNT_<KEY>`` variable whose setting
    is still at the default it fell back to and is not overridden for the call
    (a rejected ``NX_TRICOUNT_AUTOCONFIG`` always).

    Raises
    ------
    ValueError
        Naming the variable, its value and the accepted values.
    """
    overrides = overrides or {}
    for key, message in ENVIRONMENT_ERRORS.items():
        if key not in config or (overrides.get(key) is None and config[key] == _DEFAULTS[key]):
            raise ValueError(message)
