"""One typed settings object, read from [tool.newsclaims] in pyproject.toml or a --config TOML file."""

from __future__ import annotations

import math
import tomllib
from dataclasses import Field, dataclass, field, fields, replace
from enum import StrEnum
from pathlib import Path
from typing import Any

from pipeline.errors import ConfigError


class Segmenter(StrEnum):
    """How Chinese is cut into words and sentences (see Settings.segmenter)."""

    LAZY = "lazy"
    SPACY = "spacy"
    JIEBA = "jieba"


class Engine(StrEnum):
    """Where a batch's articles run: local worker processes or a dask cluster."""

    LOCAL = "local"
    DASK = "dask"


SEGMENTERS = tuple(s.value for s in Segmenter)


@dataclass(frozen=True)
class Settings:
    # "about / 约 / nearly" allows value +- this share (CONTRACT: "about" +-10 %)
    approx_tolerance: float = field(default=0.10, metadata={"range": (0.0, 1.0)})
    # orders of magnitude allow +- this much in the exponent
    magnitude_tolerance: float = field(default=0.5, metadata={"range": (0.0, 3.0)})
    # share of CJK characters that t2s must change before an article is read as Traditional
    traditional_threshold: float = field(default=0.03, metadata={"range": (0.0, 1.0)})
    # articles over this many bytes are listed in errors.jsonl instead of read
    max_bytes: int = field(default=50 * 1024 * 1024, metadata={"range": (1, None)})
    # per-article time limit in seconds (enforced by the process-pool runner); 0 runs articles in process,
    # without a limit (for debugging)
    article_timeout: float = field(default=120.0, metadata={"range": (0.0, None), "infinite": True})
    # where the shipped official tables live; None = the ones inside the package/corpora
    official: str | None = None
    # a language data folder in place of the shipped pipeline/lang (base/, one folder per language, and kb/
    # for the knowledge base when it has one): a new language or a changed lexicon without a code change
    lang_dir: str | None = None
    # counts of these are never about benchmark results: out of scope (languages, users, devices...)
    off_topic_counted: tuple[str, ...] = ("language", "team", "country", "person", "device", "product")
    # Chinese word segmentation, three ways to the same tokens and sentences (tests/test_segment.py):
    # "lazy" (sentences read off the characters by the sentencizer's rule, words cut by spaCy's jieba
    # segmenter only in the stretches where extraction asks for a word boundary; fastest), "spacy" (spaCy's
    # blank zh pipeline over whole paragraphs: the reference) or "jieba" (jieba's words for whole
    # paragraphs, without spaCy's Docs)
    segmenter: str = field(default="lazy", metadata={"choices": SEGMENTERS})
    # a corpus of more articles than this gets a corpus report page plus parts of this many articles
    report_page_articles: int = field(default=100, metadata={"range": (1, None)})
    # read a file symlink whose target lies outside the input folder (off: such links are listed in
    # errors.jsonl and not read, so /etc/passwd linked into a corpus stays unread)
    follow_symlinks: bool = False

    def __post_init__(self) -> None:
        for f in fields(self):
            _check(f, getattr(self, f.name), "settings")

    @classmethod
    def from_toml(cls, path: Path, section: tuple[str, ...] = ("tool", "newsclaims"),
                  required: bool = True) -> Settings:
        """Settings from the `[tool.newsclaims]` table of a TOML file.  A file without that table is an
        error when `required` (a --config file that is not ours), else the defaults (a project's own
        pyproject.toml that does not configure newsclaims)."""
        data: Any
        try:
            data = tomllib.loads(Path(path).read_text(encoding="utf-8"))
        except (OSError, UnicodeDecodeError, tomllib.TOMLDecodeError) as exc:
            raise ConfigError(f"{path}: cannot read settings ({exc})") from exc
        for key in section:
            data = data.get(key) if isinstance(data, dict) else None
        if data is None:
            if required:
                raise ConfigError(f"{path}: no [{'.'.join(section)}] table; newsclaims reads its settings from "
                                  "that table (see the README's Settings)")
            return cls()
        if not isinstance(data, dict):
            raise ConfigError(f"{path}: {'.'.join(section)} must be a table, not {type(data).__name__}")
        return cls().updated(data, source=str(path))

    def updated(self, values: dict, source: str = "settings") -> Settings:
        """A copy with `values` set, each checked for its type and range (`source` names where they came from)."""
        known = {f.name: f for f in fields(self)}
        clean = {}
        for key, value in values.items():
            if key not in known:
                raise ConfigError(f"{source}: unknown setting {key!r} (known: {', '.join(sorted(known))})")
            value = tuple(value) if isinstance(value, list) else value
            clean[key] = _check(known[key], value, source)
        return replace(self, **clean)


_TYPES = {"float": (int, float), "int": (int,), "bool": (bool,), "str": (str,), "str | None": (str, type(None)),
          "tuple[str, ...]": (tuple,)}


def _check(f: Field, value: Any, source: str) -> Any:
    """The value when it has the setting's type and lies in its range; else a ConfigError naming both."""
    kinds = _TYPES[str(f.type)]
    wrong = not isinstance(value, kinds) or (isinstance(value, bool) and bool not in kinds)
    if not wrong and str(f.type) == "tuple[str, ...]":
        wrong = not all(isinstance(v, str) for v in value)
    if not wrong and isinstance(value, float) and not math.isfinite(value):
        wrong = math.isnan(value) or not f.metadata.get("infinite")
    if wrong:
        raise ConfigError(f"{source}: setting {f.name} must be {_NAMES[str(f.type)]}, not {value!r}")
    low, high = f.metadata.get("range", (None, None))
    if (low is not None and value < low) or (high is not None and value > high):
        span = f"at least {low}" if high is None else f"between {low} and {high}"
        raise ConfigError(f"{source}: setting {f.name} must be {span}, not {value!r}")
    choices = f.metadata.get("choices")
    if choices and value not in choices:
        raise ConfigError(f"{source}: setting {f.name} must be one of {', '.join(choices)}, not {value!r}")
    return float(value) if str(f.type) == "float" else value


_NAMES = {"float": "a number", "int": "a whole number", "bool": "true or false", "str": "a string",
          "str | None": "a string (a path)", "tuple[str, ...]": "a list of strings"}
