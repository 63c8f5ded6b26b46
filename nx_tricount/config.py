"""The backend's configuration: ``nx.config.backends.tricount``.

Every setting, its accepted values and its default derive from
:mod:`nx_tricount.catalog`. NetworkX builds the object while ``import networkx``
runs (through ``_info.get_info``), so this module imports nothing but NetworkX's
``Config`` base class and the catalog.
"""

import os

from networkx.utils.configs import Config

from .catalog import ALGORITHMS, DEVICES, ORDERINGS, ORIENTATIONS, PARTITIONINGS, SCALE_OUT, kernel_parameters

__all__ = [
    "TricountConfig",
    "CHOICES",
    "KERNEL_PARAMETERS",
    "config_from_environment",
    "check_environment",
    "check_scale_out",
    "memory_bytes",
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


def check_parameter(key, value):
    """Return ``value`` if it is accepted for kernel parameter ``key``, else raise."""
    smallest = KERNEL_PARAMETERS[key][1].smallest
    if value is None:
        return value
    if isinstance(value, bool) or not isinstance(value, int) or value < smallest:
        raise ValueError(
            f"Invalid tricount {key} {value!r}; accepted values are None (the kernel "
            f"chooses) or an int >= {smallest}"
        )
    return value


def check_choice(key, value):
    """Return ``value`` if it is accepted for setting ``key``, else raise ValueError."""
    accepted = CHOICES[key]
    if value not in accepted:
        raise ValueError(
            f"Invalid tricount {key} {value!r}; accepted values are "
            + ", ".join(repr(v) for v in accepted)
        )
    return value


_UNITS = {
    "": 1, "b": 1,
    "kb": 10**3, "mb": 10**6, "gb": 10**9, "tb": 10**12,
    "kib": 2**10, "mib": 2**20, "gib": 2**30, "tib": 2**40,
}


def memory_bytes(value):
    """Bytes of a ``memory_limit``: an int, or a string such as ``"20GB"``,
    ``"1.5 GiB"`` or ``"512MiB"`` (None stays None)."""
    if value is None:
        return None
    if isinstance(value, int) and not isinstance(value, bool) and value > 0:
        return value
    if isinstance(value, str):
        text = value.strip().lower().replace(" ", "")
        number = text.rstrip("kmgtib")
        unit = text[len(number):]
        try:
            amount = float(number)
        except ValueError:
            amount = -1.0
        if unit in _UNITS and amount > 0:
            return int(amount * _UNITS[unit])
    raise ValueError(
        f"Invalid tricount memory_limit {value!r}; accepted values are None, a positive int "
        "(bytes), or a string of a number and a unit such as '20GB', '1.5GiB' or '512MiB'"
    )


def _check_partitions(value):
    if value is None or (isinstance(value, int) and not isinstance(value, bool) and value >= 1):
        return value
    raise ValueError(
        f"Invalid tricount partitions {value!r}; accepted values are None (as the memory "
        "limit requires) or an int >= 1 (parts per side)"
    )


def _check_partitioning(value):
    if value in PARTITIONINGS:
        return value
    raise ValueError(
        f"Invalid tricount partitioning {value!r}; accepted values are "
        + ", ".join(repr(v) for v in PARTITIONINGS)
    )


def _check_memory_limit(value):
    memory_bytes(value)
    return value


def _check_devices(value):
    if value in ("auto", "all"):
        return value
    if isinstance(value, (list, tuple)) and value and all(
        isinstance(d, int) and not isinstance(d, bool) and d >= 0 for d in value
    ):
        return list(value)
    raise ValueError(
        f"Invalid tricount devices {value!r}; accepted values are 'auto' (the current GPU), "
        "'all', or a non-empty list of GPU ids (ints >= 0)"
    )


def _check_distributed(value):
    if value in (None, "dask"):
        return value
    raise ValueError(f"Invalid tricount distributed {value!r}; accepted values are None and 'dask'")


def _check_progress(value):
    if value in (None, True, False):
        return value
    raise ValueError(f"Invalid tricount progress {value!r}; accepted values are None, True and False")


_SCALE_OUT_CHECKS = {
    "partitions": _check_partitions,
    "partitioning": _check_partitioning,
    "memory_limit": _check_memory_limit,
    "devices": _check_devices,
    "distributed": _check_distributed,
    "progress": _check_progress,
}


def check_scale_out(key, value):
    """Return ``value`` if it is accepted for scale-out setting ``key``, else raise ValueError."""
    return _SCALE_OUT_CHECKS[key](value)


def _scale_out_from_text(key, text):
    """A scale-out setting from its ``NX_TRICOUNT_<KEY>`` text."""
    lowered = text.lower()
    if lowered in ("none", ""):
        return None
    if key == "progress" and lowered in ("1", "true", "0", "false"):
        return lowered in ("1", "true")
    if key == "partitions" or (key == "memory_limit" and text.isdigit()):
        try:
            return int(text)
        except ValueError:
            return text
    if key == "devices" and lowered not in ("auto", "all"):
        try:
            return [int(part) for part in text.split(",")]
        except ValueError:
            return text
    return lowered if key != "memory_limit" else text


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
        lines.append(f"{key} : int >= {parameter.smallest} or None")
        lines.append(f"    ``{algorithm}`` on the GPU: {parameter.help}; None: the kernel chooses.")
    for key, (default, text) in SCALE_OUT.items():
        lines.append(f"{key} : default {default!r}")
        lines.append(f"    {text[0].upper()}{text[1:]}.")
    return "\n    ".join(lines)


def _setattr(self, key, value):
    """NetworkX's strict ``Config.__setattr__``, naming the accepted settings."""
    if key not in self.__dataclass_fields__:
        raise AttributeError(
            f"Invalid config name: {key!r}; the tricount settings are "
            + ", ".join(repr(name) for name in self.__dataclass_fields__)
        )
    Config.__setattr__(self, key, value)


def _on_setattr(self, key, value):
    """Validate a setting as it is assigned (NetworkX's ``Config`` hook)."""
    if key in CHOICES:
        return check_choice(key, value)
    if key in KERNEL_PARAMETERS:
        return check_parameter(key, value)
    if key in SCALE_OUT:
        return check_scale_out(key, value)
    return Config._on_setattr(self, key, value)


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
            "devices": str | list,
            "distributed": str | None,
            "progress": bool | None,
        },
        **_DEFAULTS,
        "__setattr__": _setattr,
        "_on_setattr": _on_setattr,
    },
)


#: Setting -> why its ``NX_TRICOUNT_<KEY>`` variable was not accepted, as found by
#: the last :func:`config_from_environment`; :func:`check_environment` raises it.
ENVIRONMENT_ERRORS = {}


def config_from_environment(environ=os.environ):
    """Build the default configuration, taking ``NX_TRICOUNT_<KEY>`` variables.

    Never raises: this runs inside ``import networkx``, where an exception
    would leave the backend with an empty configuration. A value that is not
    accepted leaves the setting at its default and is recorded; the first
    count raises it (:func:`check_environment`, called by ``make_plan``).
    """
    values, errors = {}, {}
    for key in (*CHOICES, *KERNEL_PARAMETERS, *SCALE_OUT):
        name = f"NX_TRICOUNT_{key.upper()}"
        text = environ.get(name, "").strip()
        if not text:
            continue
        try:
            if key in CHOICES:
                values[key] = check_choice(key, text.lower())
            elif key in SCALE_OUT:
                values[key] = check_scale_out(key, _scale_out_from_text(key, text))
            else:
                try:
                    value = int(text)
                except ValueError:
                    value = text
                values[key] = check_parameter(key, value)
        except ValueError as exc:
            errors[key] = (
                f"environment variable {name}={environ[name]!r} is not accepted: {exc}. "
                f"Unset {name} or give it an accepted value."
            )
    ENVIRONMENT_ERRORS.clear()
    ENVIRONMENT_ERRORS.update(errors)
    return TricountConfig(**values)


def check_environment(config, overrides=None):
    """Raise the error of a rejected ``NX_TRICOUNT_<KEY>`` variable whose setting
    is still at the default it fell back to and is not overridden for the call.

    Raises
    ------
    ValueError
        Naming the variable, its value and the accepted values.
    """
    overrides = overrides or {}
    for key, message in ENVIRONMENT_ERRORS.items():
        if overrides.get(key) is None and config[key] == _DEFAULTS[key]:
            raise ValueError(message)
