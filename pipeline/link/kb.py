"""The entity knowledge base: one cached, validated load of `pipeline/lang/kb/*.yaml`.

Each entity file holds one type (orgs.yaml -> org, ...); `linking.yaml` holds the words the linker
looks for (see `pipeline.link.rules`).  Everything is checked on load -- unknown keys, missing ids,
duplicate ids, the same alias on two entries, references to ids that do not exist -- and every problem is
a `DataFileError` naming the file and the key, so a typo in the data never turns into a silent non-link.
Adding an entity or an alias is a data-file change only.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Mapping
from dataclasses import dataclass, field
from functools import lru_cache
from pathlib import Path
from typing import Any

from pipeline.errors import DataFileError
from pipeline.lang.loader import LANGUAGES
from pipeline.lang.yamlio import read_yaml
from pipeline.link.rules import Linking, _strs, parse_linking
from pipeline.link.rules import by_lang as _by_lang
from pipeline.native import PACKAGE  # a compiled module's __file__ is its build's
from pipeline.records import ENTITY_TYPES

KB_DIR = PACKAGE / "lang" / "kb"
# file name -> the one entity type it holds
ENTITY_FILES: dict[str, str] = {
    "orgs.yaml": "org",
    "accelerators.yaml": "accelerator",
    "systems.yaml": "system",
    "benchmarks.yaml": "benchmark",
    "frameworks.yaml": "framework",
    "rounds.yaml": "round",
    "categories.yaml": "category",
}
KB_TYPES: tuple[str, ...] = (*ENTITY_TYPES, "category")
LANGS = LANGUAGES
FILE_KEYS = {"source", "type", "entries"}
COMMON_KEYS = {"id", "type", "aliases", "cased", "descriptions", "after", "veto_before", "veto_after",
               "generic", "family", "fuzzy", "note", "regional"}
# regional: forms that name this entry only in one regional variant of a language, where elsewhere they name
# another entry (Taiwanese 超微 is AMD, mainland 超微 is Supermicro); keys are a language and a script tag
REGIONAL_RE = re.compile(r"^(?P<lang>[a-z]{2,3})-(?P<script>[A-Z][a-z]{3})$")
# attribute -> the entity type its value(s) must be ids of (None: a plain value)
ATTR_KEYS: dict[str, dict[str, str | None]] = {
    # featured: the chip an org's results of a round were about, when the text names none (by_round)
    # parent: the company that owns it (Habana Labs is Intel's): news names either for the other's results
    "org": {"submitter": None, "featured": "accelerator", "by_round": None, "parent": "org"},
    # counted: what news calls one of them when it counts them (gpu; default chip), for "768块H100"
    # cpu: a processor that news counts with the words for hosts ("32 Sapphire Rapids CPUs" are its chips)
    "accelerator": {"org": "org", "previous": "accelerator", "submitters": "org", "by_round": None, "counted": None,
                    "cpu": None},
    "system": {"org": "org", "accelerator": "accelerator", "chips": None, "rounds": "round", "by_round": None,
               "instance_of": "system"},
    "benchmark": {"task": None, "rounds": "round", "area": None},
    "framework": {"org": "org"},
    "round": {"date": None, "ordinal": None},
    "category": {"axis": None},  # axis: category (availability; the default) or division (closed/open)
}
# MLPerf benchmark keys carry underscores (dlrm_dcnv2, llama2_70b_lora): ids take them as the tables write them
ID_RE = re.compile(r"^[a-z0-9][a-z0-9._\-]*$")
DATE_RE = re.compile(r"^\d{4}-\d{2}-\d{2}$")

# ---------------------------------------------------------------------------------------------- folding

_t2s: Any = None


def _converter() -> Any:
    """OpenCC t2s, built once; None when opencc is missing (then only explicit variants match)."""
    global _t2s
    if _t2s is None:
        try:
            import opencc

            _t2s = opencc.OpenCC("t2s.json")
        except Exception:  # noqa: BLE001 - folding is a convenience, not a requirement
            _t2s = False
    return _t2s or None


@lru_cache(maxsize=65536)
def _fold_char(ch: str) -> str:
    # letters, digits and spaces only: full-width punctuation stays CJK punctuation, which the tokenizer
    # splits off ("Pod（1024" is Pod + （ + 1024, where "Pod(1024" would be one English token)
    norm = unicodedata.normalize("NFKC", ch)
    return norm if len(norm) == 1 and (norm.isalnum() or norm.isspace()) else ch


class _FoldTable(dict[int, str]):
    """str.translate's table for _fold_char, filled as characters are met."""

    def __missing__(self, code: int) -> str:
        out = self[code] = _fold_char(chr(code))
        return out


_FOLD_TABLE = _FoldTable()


# fold's answers by text: each stage folds the same sentences again (the recognizer, the linker, every
# claim's context), and OpenCC's conversion of a sentence costs more than the look-up
_FOLDED: dict[str, str] = {}
_FOLDED_MAX = 8192


def fold(text: str) -> str:
    """Full-width letters and digits -> ASCII and Traditional -> Simplified, one character for one
    character, so offsets in folded text are offsets in the original (CONTRACT: offsets refer to it)."""
    if text.isascii():
        return text
    out = _FOLDED.get(text)
    if out is None:
        if len(_FOLDED) >= _FOLDED_MAX:
            _FOLDED.clear()
        out = _FOLDED[text] = _fold(text)
    return out


def _fold(text: str) -> str:
    text = text.translate(_FOLD_TABLE)
    conv = _converter()
    if conv is not None:
        out = conv.convert(text)
        if len(out) != len(text):  # a phrase conversion changed the length: go character by character
            out = "".join(c2 if len(c2 := conv.convert(c)) == 1 else c for c in text)
        text = out
    return text


def alias_key(text: str, cased: bool = False) -> str:
    """The key two surface forms share when they are the same name: folded, spaces dropped, and
    lowercased unless the form is case-sensitive."""
    key = "".join(fold(text).split())
    return key if cased else key.lower()


# ---------------------------------------------------------------------------------------------- records


@dataclass(frozen=True)
class Entry:
    id: str
    type: str
    file: str
    aliases: Mapping[str, tuple[str, ...]]
    cased: Mapping[str, tuple[str, ...]]
    descriptions: Mapping[str, tuple[str, ...]]
    after: Mapping[str, Mapping[str, tuple[str, ...]]]  # type -> lang -> forms valid only after that type
    veto_before: tuple[str, ...] = ()
    veto_after: tuple[str, ...] = ()
    generic: bool = False
    family: str | None = None
    fuzzy: bool = True
    attrs: Mapping[str, Any] = field(default_factory=dict)
    regional: Mapping[str, tuple[str, ...]] = field(default_factory=dict)  # variant -> forms

    def attr(self, name: str, round_id: str | None = None) -> Any:
        """An attribute, as it was in `round_id` when the entry records a change (by_round)."""
        by_round = self.attrs.get("by_round") or {}
        if round_id and name in (by_round.get(round_id) or {}):
            return by_round[round_id][name]
        return self.attrs.get(name)


@dataclass(frozen=True)
class Alias:
    """One surface form of one entry."""

    text: str
    type: str
    id: str
    kind: str  # alias, cased, description, context, generic
    lang: str
    after: str | None = None  # for kind "context": the type that must come right before


@dataclass(eq=False)  # one per folder and process: compared and hashed by identity, so caches may key on it
class KnowledgeBase:
    root: Path
    entries: dict[str, dict[str, Entry]]  # type -> id -> entry
    aliases: tuple[Alias, ...]
    index: dict[str, tuple[Alias, ...]]  # caseless alias_key -> forms
    linking: Linking
    sources: dict[str, str]
    rounds: tuple[Entry, ...]  # by date
    cache: dict[str, Any] = field(default_factory=dict, repr=False)  # built lazily: the recognizer
    # variant (zh-Hant) -> caseless alias_key of a form -> the (type, id) it names in that variant
    regional: dict[str, dict[str, tuple[str, str]]] = field(default_factory=dict)

    def get(self, etype: str, eid: str | None) -> Entry | None:
        """The entry of that type and id (None: no id, or one the knowledge base does not hold)."""
        return self.entries.get(etype, {}).get(eid) if eid else None

    def lookup(self, text: str, etype: str | None = None) -> Alias | None:
        """The form a text names exactly (case-sensitive forms only as written), optionally of one type."""
        exact = alias_key(text, cased=True)
        for a in self.index.get(alias_key(text), ()):
            if (etype is None or a.type == etype) and (a.kind != "cased" or alias_key(a.text, True) == exact):
                return a
        return None

    def related_orgs(self, org: str) -> set[str]:
        """The company that owns `org` and the companies it owns (the `parent` attribute: Habana Labs is
        Intel's), built once per knowledge base."""
        related = self.cache.get("related_orgs")
        if related is None:
            related = {}
            for o in self.entries.get("org", {}).values():
                parent = o.attr("parent")
                if parent:
                    related.setdefault(o.id, set()).add(str(parent))
                    related.setdefault(str(parent), set()).add(o.id)
            self.cache["related_orgs"] = related
        return set(related.get(org, ()))

    def last_round(self, benchmark: str) -> str | None:
        """The latest round whose suite holds the benchmark (BERT: v5.0)."""
        entry = self.get("benchmark", benchmark)
        rounds = set(entry.attrs.get("rounds") or ()) if entry is not None else set()
        return next((r.id for r in reversed(self.rounds) if r.id in rounds), None)

    def first_round(self, benchmark: str) -> str | None:
        """The earliest round whose suite holds the benchmark (GPT-3: v3.0)."""
        entry = self.get("benchmark", benchmark)
        rounds = set(entry.attrs.get("rounds") or ()) if entry is not None else set()
        return next((r.id for r in self.rounds if r.id in rounds), None)

    def members(self, etype: str, family: str) -> list[Entry]:
        """The entries of that type in one family, and in the families inside it (a GPU is an H100 through
        the Hopper family); the generic entries themselves are none of them."""
        out: list[Entry] = []
        for e in self.entries.get(etype, {}).values():
            if e.family == family:
                out.extend(self.members(etype, e.id) if e.generic else [e])
        return out

    def generations(self, etype: str = "accelerator") -> dict[str, frozenset[str]]:
        """Each family of a family (a chip generation: Hopper, Blackwell Ultra; not the root "GPU") -> its
        members' ids, for asking the official tables about a generation its chip is not named in (built once
        per knowledge base)."""
        key = f"generations:{etype}"
        if key not in self.cache:
            self.cache[key] = {e.id: frozenset(m.id for m in self.members(etype, e.id))
                               for e in self.entries.get(etype, {}).values() if e.generic and e.family}
        return dict(self.cache[key])

    def round_id(self, value: Any) -> str | None:
        """A round given as an id or any alias ("training-v0.7", "v0.7", "第三批")."""
        if value is None:
            return None
        text = str(value)
        if text in self.entries["round"]:
            return text
        hit = self.lookup(text, "round")
        return hit.id if hit else None

    def round_in_month(self, iso: str, after: str | None = None) -> str | None:
        """The round published in the year-month of an ISO date ("2018-12" -> training-v0.5); for a year
        alone ("2021"), the round of that year when it had only one, or, seen from an article of the year
        before (`after`, its round), the first of that year: the next round to come ("the next round is
        expected in 2021", written in 2020, is v1.0, not December's v1.1)."""
        text = str(iso)
        month = text[:7]
        if len(text) == 4 and text.isdigit():
            found = [r for r in self.rounds if str(r.attrs["date"])[:4] == text]
            if len(found) == 1:
                return found[0].id
            before = self.get("round", after) if after else None
            # only the year after the article's round: the next round is within a year, a later year is a
            # forecast ("below 10 seconds by 2022"), no round
            if found and before is not None and int(str(before.attrs["date"])[:4]) + 1 == int(text):
                return found[0].id
            return None
        if len(month) < 7:
            return None
        return next((r.id for r in self.rounds if str(r.attrs["date"])[:7] == month), None)

    def round_on(self, iso: str) -> str | None:
        """The latest round published on or before an ISO date: a news article's round."""
        found = None
        for r in self.rounds:
            if str(r.attrs["date"]) <= str(iso)[:10]:
                found = r.id
        return found

    def rounds_of_year_before(self, rid: str | None) -> list[str]:
        """The rounds published in the calendar year before `rid`'s ("last year" from v4.0: v3.0 and v3.1)."""
        entry = self.get("round", rid)
        date = str(entry.attr("date") or "") if entry is not None else ""
        if len(date) < 4 or not date[:4].isdigit():
            return []
        year = str(int(date[:4]) - 1)
        return [r.id for r in self.rounds if str(r.attr("date") or "").startswith(year)]

    def previous_round(self, rid: str | None) -> str | None:
        """The round published before `rid` (None: it is the first, or no known round)."""
        ids = [r.id for r in self.rounds]
        return ids[ids.index(rid) - 1] if rid in ids and ids.index(rid) > 0 else None


# ---------------------------------------------------------------------------------------------- loading


def _entry(path: Path, ftype: str, i: int, raw: Any) -> Entry:
    if not isinstance(raw, dict):
        raise DataFileError(path, "an entry must be a mapping", f"entries[{i}]")
    eid = raw.get("id")
    where = f"entries[{i}]" if not eid else str(eid)
    if not eid or not isinstance(eid, str):
        raise DataFileError(path, "entry has no id", f"entries[{i}].id")
    if not ID_RE.match(eid):
        raise DataFileError(path, "ids are lowercase letters, digits, '.', '-' and '_'", f"{where}.id")
    allowed = COMMON_KEYS | set(ATTR_KEYS[ftype])
    for key in raw:
        if key not in allowed:
            raise DataFileError(path, f"unknown key for a {ftype} entry", f"{where}.{key}")
    if raw.get("type", ftype) != ftype:
        raise DataFileError(path, f"entry type {raw['type']!r} in a file of {ftype} entries", f"{where}.type")
    if "aliases" not in raw and "cased" not in raw:
        raise DataFileError(path, "entry has no aliases", f"{where}.aliases")
    after: dict[str, dict[str, tuple[str, ...]]] = {}
    for atype, forms in (raw.get("after") or {}).items():
        if atype not in KB_TYPES:
            raise DataFileError(path, "unknown entity type", f"{where}.after.{atype}")
        after[atype] = _by_lang(path, forms, f"{where}.after.{atype}")
    if ftype == "round" and not DATE_RE.match(str(raw.get("date", ""))):
        raise DataFileError(path, "a round needs an ISO date (YYYY-MM-DD)", f"{where}.date")
    return Entry(
        id=eid,
        type=ftype,
        file=path.name,
        aliases=_by_lang(path, raw.get("aliases"), f"{where}.aliases"),
        cased=_by_lang(path, raw.get("cased"), f"{where}.cased"),
        descriptions=_by_lang(path, raw.get("descriptions"), f"{where}.descriptions"),
        after=after,
        veto_before=_strs(path, raw.get("veto_before"), f"{where}.veto_before"),
        veto_after=_strs(path, raw.get("veto_after"), f"{where}.veto_after"),
        generic=bool(raw.get("generic", False)),
        family=raw.get("family"),
        fuzzy=bool(raw.get("fuzzy", True)),
        attrs={k: v for k, v in raw.items() if k in ATTR_KEYS[ftype]},
        regional=_regional(path, raw.get("regional"), f"{where}.regional"),
    )


def _regional(path: Path, raw: Any, where: str) -> dict[str, tuple[str, ...]]:
    if raw is None:
        return {}
    if not isinstance(raw, dict):
        raise DataFileError(path, "expected a mapping of regional variant (zh-Hant) to forms", where)
    out = {}
    for variant, forms in raw.items():
        m = REGIONAL_RE.match(str(variant))
        if m is None or m["lang"] not in LANGS:
            raise DataFileError(path, f"a regional variant is a language and a script, e.g. zh-Hant; "
                                f"languages: {', '.join(LANGS)}", f"{where}.{variant}")
        out[str(variant)] = _strs(path, forms, f"{where}.{variant}")
    return out


def _read_entity_file(path: Path, ftype: str) -> tuple[str, list[Entry]]:
    data = read_yaml(path)
    if not isinstance(data, dict):
        raise DataFileError(path, "top level must be a mapping with source, type and entries")
    for key in data:
        if key not in FILE_KEYS:
            raise DataFileError(path, "unknown top-level key", key)
    if not str(data.get("source") or "").strip():
        raise DataFileError(path, "every knowledge-base file records its source", "source")
    if data.get("type", ftype) != ftype:
        raise DataFileError(path, f"file holds {ftype} entries", "type")
    raw_entries = data.get("entries")
    if not isinstance(raw_entries, list) or not raw_entries:
        raise DataFileError(path, "expected a non-empty list of entries", "entries")
    return str(data["source"]).strip(), [_entry(path, ftype, i, raw) for i, raw in enumerate(raw_entries)]


def _check_refs(root: Path, entries: dict[str, dict[str, Entry]]) -> None:
    """Every attribute that names another entry names one that exists."""
    for etype, by_id in entries.items():
        for e in by_id.values():
            path = root / e.file
            if e.family is not None:
                fam = entries[etype].get(e.family)
                if fam is None or not fam.generic:
                    raise DataFileError(path, "family must be the id of a generic entry of the same type",
                                        f"{e.id}.family")
            checks: list[tuple[str, str | None, Any]] = [
                (name, ref, e.attrs.get(name)) for name, ref in ATTR_KEYS[etype].items()]
            for rid, changes in (e.attrs.get("by_round") or {}).items():
                checks.append((f"by_round.{rid}", "round", rid))
                if not isinstance(changes, dict):
                    raise DataFileError(path, "by_round maps a round to changed attributes", f"{e.id}.by_round")
                for name, value in changes.items():
                    if name not in ATTR_KEYS[etype] or name in ("by_round", "rounds"):
                        raise DataFileError(path, "unknown attribute", f"{e.id}.by_round.{rid}.{name}")
                    checks.append((f"by_round.{rid}.{name}", ATTR_KEYS[etype][name], value))
            for name, ref, value in checks:
                if ref is None or value is None:
                    continue
                for v in value if isinstance(value, list) else [value]:
                    if str(v) not in entries[ref]:
                        raise DataFileError(path, f"{v!r} is not a {ref} id in the knowledge base",
                                            f"{e.id}.{name}")


def _aliases(e: Entry) -> list[Alias]:
    kind = "generic" if e.generic else "alias"
    out = [Alias(t, e.type, e.id, kind, lang) for lang, forms in e.aliases.items() for t in forms]
    out += [Alias(t, e.type, e.id, "cased", lang) for lang, forms in e.cased.items() for t in forms]
    out += [Alias(t, e.type, e.id, "description", lang) for lang, forms in e.descriptions.items() for t in forms]
    out += [Alias(t, e.type, e.id, "context", lang, after=atype)
            for atype, by_lang in e.after.items() for lang, forms in by_lang.items() for t in forms]
    return out


def _index(root: Path, entries: dict[str, dict[str, Entry]]) -> tuple[tuple[Alias, ...], dict]:
    """All surface forms, refusing a form that two entries claim (after folding and, for caseless
    forms, lowercasing): the linker could not tell which one a text means.  Two case-sensitive forms
    may differ only in case (a caseless form would match both)."""
    any_form: dict[str, Alias] = {}  # lowercase key -> first form of any kind
    caseless: dict[str, Alias] = {}  # lowercase key -> first caseless form
    cased: dict[str, Alias] = {}  # exact key -> first cased form
    index: dict[str, list[Alias]] = {}
    all_aliases: list[Alias] = []
    for by_id in entries.values():
        for e in by_id.values():
            for a in _aliases(e):
                if not a.text.strip():
                    raise DataFileError(root / e.file, "empty alias", f"{e.id}.{a.kind}")
                lk, ck = alias_key(a.text), alias_key(a.text, cased=True)
                rivals = [caseless.get(lk), cased.get(ck)] if a.kind == "cased" else [any_form.get(lk)]
                for prev in rivals:
                    if prev is not None and (prev.type, prev.id) != (a.type, a.id):
                        raise DataFileError(
                            root / e.file,
                            f"alias {a.text!r} is also an alias of {prev.type} {prev.id!r} "
                            f"({ENTITY_FILE_OF[prev.type]})", f"{e.id}.{a.kind}")
                any_form.setdefault(lk, a)
                (cased.setdefault(ck, a) if a.kind == "cased" else caseless.setdefault(lk, a))
                index.setdefault(lk, []).append(a)
                all_aliases.append(a)
    return tuple(all_aliases), {k: tuple(v) for k, v in index.items()}


ENTITY_FILE_OF = {t: f for f, t in ENTITY_FILES.items()}


@lru_cache(maxsize=8)
def _load(root: str) -> KnowledgeBase:
    path = Path(root)
    entries: dict[str, dict[str, Entry]] = {t: {} for t in KB_TYPES}
    sources: dict[str, str] = {}
    for fname, ftype in ENTITY_FILES.items():
        fpath = path / fname
        if not fpath.exists():
            raise DataFileError(fpath, "knowledge-base file is missing")
        sources[fname], file_entries = _read_entity_file(fpath, ftype)
        for e in file_entries:
            if e.id in entries[ftype]:
                raise DataFileError(fpath, "duplicate id", e.id)
            entries[ftype][e.id] = e
    _check_refs(path, entries)
    aliases, index = _index(path, entries)
    linking_path = path / "linking.yaml"
    linking = parse_linking(linking_path, read_yaml(linking_path), KB_TYPES)
    sources["linking.yaml"] = linking.source
    rounds = tuple(sorted(entries["round"].values(), key=lambda r: str(r.attrs["date"])))
    return KnowledgeBase(path, entries, aliases, index, linking, sources, rounds,
                         regional=_regional_index(path, entries, index))


def _regional_index(root: Path, entries: dict[str, dict[str, Entry]], index: dict[str, tuple[Alias, ...]]
                    ) -> dict[str, dict[str, tuple[str, str]]]:
    """Each regional form, checked to be what it is for: a form another entry of the type names everywhere
    else (a form of no other entry would be a plain alias)."""
    out: dict[str, dict[str, tuple[str, str]]] = {}
    for by_id in entries.values():
        for e in by_id.values():
            for variant, forms in e.regional.items():
                for form in forms:
                    key = alias_key(form)
                    others = [a for a in index.get(key, ()) if a.type == e.type and a.id != e.id]
                    if not others:
                        raise DataFileError(root / e.file, f"regional form {form!r} names no other {e.type}: "
                                            "list it as an alias", f"{e.id}.regional.{variant}")
                    out.setdefault(variant, {})[key] = (e.type, e.id)
    return out


def load_kb(root: str | Path | None = None) -> KnowledgeBase:
    """The knowledge base in `root` (default: pipeline/lang/kb), loaded and validated once per process."""
    return _load(str(Path(root).resolve() if root else KB_DIR))
