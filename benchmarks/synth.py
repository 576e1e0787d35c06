"""A synthetic corpus of N articles made from the shipped ones (corpora/articles/**).

Article i is a variant of base article i mod B (so both languages, txt/md/html and Traditional Chinese
keep their shares), with a seed of its own:
- numbers are swapped for other plausible numbers of the same shape: same digit count or decimals,
  thousands separators kept, powers of two stay powers of two (4096 chips -> 1024 or 8192), percentages
  stay under 100; years, dates ("July 29", 7月29日) and digits inside names (v0.7, A100, ResNet-50, 0.7-70)
  are left alone; a Chinese numeral before a counter (三倍, 八项; not an ordinal 第三轮) becomes another;
- org, accelerator and benchmark names are swapped with other entries' aliases from the knowledge base
  (pipeline/lang/kb/), consistently within an article (all "Google" become "NVIDIA"), or for another
  alias of the same entry; in a Traditional-Chinese article the replacement is converted to Traditional;
- HTML markup is left as it is: only the text between tags changes.
Each article gets a small .meta.yaml sidecar (title, date, round, language) like the shipped ones.

    python benchmarks/synth.py OUT_DIR --n 1000 [--seed 0]
"""

from __future__ import annotations

import argparse
import random
import re
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path

import yaml

REPO = Path(__file__).resolve().parents[1]
ARTICLES = REPO / "corpora" / "articles"
SUFFIXES = {".txt", ".md", ".html", ".htm"}
SWAP_TYPES = ("org", "accelerator", "benchmark")
META_KEYS = ("title", "date", "round", "language")

# An ASCII number not glued to a name or a clock time: no letter, digit, '.', '-', '/' or ':' beside it.
NUMBER = re.compile(r"(?<![A-Za-z0-9_.\-/:])(\d{1,3}(?:,\d{3})+|\d+)(?:\.(\d+))?(?![A-Za-z0-9_\-/:]|[.,]\d)")
MONTHS = re.compile(r"(?:Jan|Feb|Mar|Apr|May|Jun|Jul|Aug|Sep|Sept|Oct|Nov|Dec)[a-z]*\.?\s*$")
ZH_DATE_AFTER = "年月日号號"
ZH_NUMERAL = re.compile(r"(?<!第)[二两兩三四五六七八九](?=[倍个個项項块塊台次轮輪家])")
ZH_NUMERALS = "二三四五六七八九"
TAG = re.compile(r"(<[^>]*>|&#?\w+;)")


@dataclass(frozen=True)
class Base:
    rel: Path
    text: str
    meta: dict
    lang: str  # "en" or "zh" (the KB's alias languages)
    traditional: bool


def load_bases(root: Path = ARTICLES) -> list[Base]:
    out = []
    for path in sorted(root.rglob("*")):
        if not path.is_file() or path.suffix.lower() not in SUFFIXES:
            continue
        meta_path = path.with_name(path.name + ".meta.yaml")
        meta = yaml.safe_load(meta_path.read_text(encoding="utf-8")) if meta_path.exists() else {}
        language = str(meta.get("language") or "en")
        encoding = str(meta.get("encoding") or "utf-8")
        out.append(Base(rel=path.relative_to(root), text=path.read_bytes().decode(encoding), meta=meta,
                        lang="zh" if language.startswith("zh") else "en",
                        traditional=language.lower() in {"zh-hant", "zh-tw", "zh-hk"}))
    return out


@lru_cache(maxsize=1)
def _s2t():
    import opencc

    return opencc.OpenCC("s2t")


@lru_cache(maxsize=1)
def alias_table() -> dict[str, dict[str, dict[str, tuple[str, ...]]]]:
    """type -> lang -> entry id -> aliases (named entries only: a generic "TPU" or "GPU" stays)."""
    from pipeline.link.kb import load_kb

    kb = load_kb()
    table: dict[str, dict[str, dict[str, tuple[str, ...]]]] = {}
    for etype in SWAP_TYPES:
        for eid, entry in kb.entries.get(etype, {}).items():
            if entry.generic:
                continue
            for lang, forms in entry.aliases.items():
                forms = tuple(f for f in forms if len(f) >= 2)
                if forms:
                    table.setdefault(etype, {}).setdefault(lang, {})[eid] = forms
    return table


@lru_cache(maxsize=2)
def alias_pattern(lang: str) -> tuple[re.Pattern[str], dict[str, tuple[str, str]]]:
    """One regex over every alias of a language (longest first) and alias -> (type, id)."""
    owner: dict[str, tuple[str, str]] = {}
    for etype, by_lang in alias_table().items():
        for eid, forms in by_lang.get(lang, {}).items():
            for form in forms:
                owner.setdefault(form, (etype, eid))
    longest_first = sorted(owner, key=len, reverse=True)
    body = "|".join(re.escape(f) for f in longest_first)
    if lang == "en":
        return re.compile(rf"(?<![A-Za-z0-9])(?:{body})(?![A-Za-z0-9])"), owner
    return re.compile(body), owner


def _plausible(match: re.Match[str], text: str, rng: random.Random) -> str:
    whole, frac = match.group(1), match.group(2)
    start, end = match.span()
    digits = whole.replace(",", "")
    value = int(digits)
    if frac is None and len(digits) == 4 and 1900 <= value <= 2099:
        return match.group(0)  # a year
    after = text[end:end + 3].lstrip()[:1]
    if MONTHS.search(text[max(0, start - 12):start]) or (after and after in ZH_DATE_AFTER):
        return match.group(0)  # a day or month
    if frac is None and value >= 8 and value & (value - 1) == 0:
        shift = rng.choice((-2, -1, 1, 2))
        new = value << shift if shift > 0 else value >> -shift
    elif frac is None:
        lo, hi = (10 ** (len(digits) - 1), 10 ** len(digits) - 1) if len(digits) > 1 else (1, 9)
        new = rng.randint(lo, hi)
    else:
        new = None
    if text[end:end + 1] in "%％" or text[end:end + 2] == " %" or text[end:end + 8].lstrip().startswith("percent"):
        if new is not None:
            new = min(new, 99)
    if new is None:  # a decimal: same integer digits and decimals
        lo = 10 ** (len(digits) - 1) if len(digits) > 1 else 0
        hi = 10 ** len(digits) - 1
        out = f"{rng.uniform(lo, hi + 0.999):.{len(frac)}f}"
        if float(out) == 0:
            out = f"{0.1:.{len(frac)}f}"
        return out
    return f"{new:,}" if "," in whole else str(new)


def _swap_entities(text: str, base: Base, rng: random.Random, plan: dict[tuple[str, str], str]) -> str:
    """Replace KB aliases; `plan` maps (type, id) -> the id it becomes in this article."""
    from pipeline.link.kb import fold

    pattern, owner = alias_pattern(base.lang)
    table = alias_table()
    probe = fold(text) if base.traditional else text  # same length: offsets carry over
    parts, pos = [], 0
    for m in pattern.finditer(probe):
        etype, eid = owner[m.group(0)]
        if (etype, eid) not in plan:
            choices = sorted(table[etype][base.lang])
            # half the time another entry, otherwise another name of the same one
            plan[(etype, eid)] = rng.choice(choices) if rng.random() < 0.5 else eid
        new = rng.choice(table[etype][base.lang][plan[(etype, eid)]])
        if base.traditional:
            new = _s2t().convert(new)
        parts.append(text[pos:m.start()])
        parts.append(new)
        pos = m.end()
    parts.append(text[pos:])
    return "".join(parts)


def _vary_text(text: str, base: Base, rng: random.Random, plan: dict[tuple[str, str], str]) -> str:
    text = NUMBER.sub(lambda m: _plausible(m, text, rng), text)
    if base.lang == "zh":
        text = ZH_NUMERAL.sub(lambda m: rng.choice(ZH_NUMERALS), text)
    return _swap_entities(text, base, rng, plan)


def vary(base: Base, seed: int) -> str:
    """One synthetic variant of a base article (deterministic for a seed)."""
    rng = random.Random(seed)
    plan: dict[tuple[str, str], str] = {}
    if base.rel.suffix.lower() in {".html", ".htm"}:
        pieces = TAG.split(base.text)
        return "".join(p if i % 2 else _vary_text(p, base, rng, plan) for i, p in enumerate(pieces))
    return _vary_text(base.text, base, rng, plan)


def build(out: Path, n: int, seed: int = 0, bases: list[Base] | None = None) -> tuple[int, int]:
    """Write n articles under out (1000 per folder); returns (articles, bytes of article text)."""
    bases = bases or load_bases()
    total = 0
    for i in range(n):
        base = bases[i % len(bases)]
        text = vary(base, seed * 1_000_003 + i)
        path = out / f"{i // 1000:03d}" / base.rel.parent / f"{i:05d}_{base.rel.name}"
        path.parent.mkdir(parents=True, exist_ok=True)
        data = text.encode("utf-8")
        path.write_bytes(data)
        total += len(data)
        meta = {k: base.meta[k] for k in META_KEYS if k in base.meta}
        path.with_name(path.name + ".meta.yaml").write_text(
            yaml.safe_dump(meta, allow_unicode=True, sort_keys=False), encoding="utf-8")
    return n, total


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("out", type=Path)
    ap.add_argument("--n", type=int, default=1000)
    ap.add_argument("--seed", type=int, default=0)
    args = ap.parse_args()
    n, size = build(args.out, args.n, args.seed)
    print(f"{n} articles, {size / 1e6:.2f} MB -> {args.out}")


if __name__ == "__main__":
    main()
