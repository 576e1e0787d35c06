"""What each evidence id of a verdict is, in words, and where a reader can see it.

A verdict's evidence is a list of ids: an official result (training-v0.7/Google/tpu-v3-8192-JAX/bert), a
statement's source page (a URL), or a round.  A result links to its folder of result logs in the round's
results repository, at the commit the tables were computed from (pipeline/official/rounds.yaml), and is
described as a person would say it: whose result, on how many of which chips, in which round, how long.
Where the system's name counts cores rather than chips (Google's tpu-v3-8192 is 4,096 chips), it says so.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from typing import Any
from urllib.parse import urlsplit

from pipeline.link.kb import KnowledgeBase
from pipeline.official.canon import canon, round_rules
from pipeline.official.query import OfficialResults
from pipeline.reconcile.context import entity_name, possessive


def _core_note(system: str, count: int | None, cores_per_chip: Any) -> str:
    """ "; the 8192 of its name counts cores, 2 per chip" when a number in the system's name is the core
    count of its chips."""
    if not count or not isinstance(cores_per_chip, int) or cores_per_chip < 2:
        return ""
    for n in (int(x) for x in re.findall(r"\d+", system)):
        if n == count * cores_per_chip:
            return f"; the {n:,} in its name counts cores, {cores_per_chip} per chip"
    return ""


def describe(official: OfficialResults, kb: KnowledgeBase, ids: Iterable[str]) -> dict[str, dict[str, str | None]]:
    """{evidence id: {"url": where to see it or None, "what": it in words}} for the ids given."""
    rules = round_rules()
    # how many cores a chip has, where makers name systems by cores: the official canon says (canon.yaml)
    cores = {p.id: p.cores_per_chip for p in canon().accelerators}
    out: dict[str, dict[str, str | None]] = {}
    for eid in dict.fromkeys(str(i) for i in ids):
        if eid.startswith(("http://", "https://")):
            host = (urlsplit(eid).hostname or "").removeprefix("www.")
            out[eid] = {"url": eid, "what": f"the statement's source ({host})"}
            continue
        if eid in rules:
            out[eid] = {"url": None, "what": f"the round {entity_name(kb, 'round', eid)}"}
            continue
        try:
            r = official.record(eid)
        except KeyError:
            continue
        rule = rules.get(r.round)
        url = None
        if rule is not None and rule.repository and rule.commit and r.source:
            url = f"https://{rule.repository}/tree/{rule.commit}/{r.source}"
        chips = ""
        if r.accelerator_count:
            acc = entity_name(kb, "accelerator", r.accelerator) if r.accelerator else "accelerator"
            chips = f" on {r.accelerator_count:,} {acc} chips"
        note = _core_note(r.system, r.accelerator_count, cores.get(r.accelerator or ""))
        time = f": {r.minutes:.2f} min" if r.minutes is not None else ": no score (logs missing or failed)"
        whose = possessive(entity_name(kb, "org", r.org))
        what = (f"{whose} {entity_name(kb, 'benchmark', r.benchmark)} result{chips} "
                f"(system {r.system}{note}), {entity_name(kb, 'round', r.round)}{time}; the result logs")
        out[eid] = {"url": url, "what": what}
    return out
