"""One typed settings object, read from [tool.newsclaims] in pyproject.toml or a --config TOML file."""

from __future__ import annotations

import tomllib
from dataclasses import dataclass, fields, replace
from pathlib import Path

from pipeline.errors import ConfigError

SEGMENTERS = ("lazy", "spacy", "jieba")  # see Settings.segmenter


@dataclass(frozen=True)
class Settings:
    # "about / 约 / nearly" allows value +- this share (CONTRACT: "about" +-10 %)
    approx_tolerance: float = 0.10
    # orders of magnitude allow +- this much in the exponent
    magnitude_tolerance: float = 0.5
    # share of CJK characters that t2s must change before an article is read as Traditional
    traditional_threshold: float = 0.03
    # articles over this many bytes are listed in errors.jsonl instead of read
    max_bytes: int = 50 * 1024 * 1024
    # per-article time limit in seconds (enforced by the process-pool runner)
    article_timeout: float = 120.0
    # where the shipped official tables live; None = the ones inside the package/corpora
    official: str | None = None
    # counts of these are never about benchmark results: out of scope (languages, users, devices...)
    off_topic_counted: tuple[str, ...] = ("language", "team", "country", "person", "device", "product")
    # Chinese word segmentation, three ways to the same tokens and sentences (tests/test_segment.py):
    # "lazy" (sentences read off the characters by the sentencizer's rule, words cut by spaCy's jieba
    # segmenter only in the stretches where extraction asks for a word boundary; fastest), "spacy" (spaCy's
    # blank zh pipeline over whole paragraphs: the reference) or "jieba" (jieba's words for whole
    # paragraphs, without spaCy's Docs)
    segmenter: str = "lazy"
    # a corpus of more articles than this gets a corpus report page plus parts of this many articles
    report_page_articles: int = 100
    # read a file symlink whose target lies outside the input folder (off: such links are listed in
    # errors.jsonl and not read, so /etc/passwd linked into a corpus stays unread)
    follow_symlinks: bool = False

    @classmethod
    def from_toml(cls, path: Path, section: tuple[str, ...] = ("tool", "newsclaims")) -> Settings:
        try:
            data = tomllib.loads(Path(path).read_text(encoding="utf-8"))
        except (OSError, tomllib.TOMLDecodeError) as exc:
            raise ConfigError(f"{path}: cannot read settings ({exc})") from exc
        for key in section:
            data = data.get(key, {}) if isinstance(data, dict) else {}
        return cls().updated(data, source=str(path))

    def updated(self, values: dict, source: str = "settings") -> Settings:
        known = {f.name: f.type for f in fields(self)}
        clean = {}
        for key, value in values.items():
            if key not in known:
                raise ConfigError(f"{source}: unknown setting {key!r} (known: {', '.join(sorted(known))})")
            clean[key] = tuple(value) if isinstance(value, list) else value
        if clean.get("segmenter", self.segmenter) not in SEGMENTERS:
            raise ConfigError(f"{source}: segmenter must be one of {', '.join(SEGMENTERS)}, "
                              f"not {clean['segmenter']!r}")
        return replace(self, **clean)
