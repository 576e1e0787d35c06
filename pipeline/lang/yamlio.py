"""Strict YAML reading for data files: duplicate keys are errors, and every error names the file."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import yaml

from pipeline.errors import DataFileError


# The C loader parses our data files about ten times faster; the duplicate-key check below works on both.
class _StrictLoader(getattr(yaml, "CSafeLoader", yaml.SafeLoader)):  # type: ignore[misc]
    pass


def _construct_mapping(loader: _StrictLoader, node: yaml.MappingNode, deep: bool = False) -> dict:
    mapping: dict[Any, Any] = {}
    for key_node, value_node in node.value:
        key = loader.construct_object(key_node, deep=deep)
        if key in mapping:
            raise yaml.constructor.ConstructorError(
                None, None, f"duplicate key {key!r}", key_node.start_mark
            )
        mapping[key] = loader.construct_object(value_node, deep=deep)
    return mapping


_StrictLoader.add_constructor(yaml.resolver.BaseResolver.DEFAULT_MAPPING_TAG, _construct_mapping)


def read_yaml(path: Path) -> Any:
    """Read one YAML data file; a syntax error or duplicate key raises DataFileError naming the file."""
    try:
        text = Path(path).read_text(encoding="utf-8")
    except OSError as exc:
        raise DataFileError(path, f"cannot read: {exc.strerror or exc}") from exc
    try:
        return yaml.load(text, Loader=_StrictLoader)  # noqa: S506 - SafeLoader subclass
    except yaml.YAMLError as exc:
        raise DataFileError(path, f"invalid YAML: {exc}") from exc
