"""The extraction specification: every sentence in tests/cases/<lang>/*.yaml yields exactly its claims."""

from __future__ import annotations

import math
from pathlib import Path

import pytest
import yaml

from pipeline import extract_text

CASES = Path(__file__).parent / "cases"
CHECKED = ("kind", "value", "unit", "counted", "of_total", "bound", "ratio_reading", "low", "high")


def _load_cases():
    out = []
    for path in sorted(CASES.glob("*/*.yaml")):
        for n, case in enumerate(yaml.safe_load(path.read_text(encoding="utf-8")) or [], 1):
            marks = [pytest.mark.xfail(reason=case["xfail"], strict=False)] if case.get("xfail") else []
            out.append(pytest.param(case, id=f"{path.parent.name}/{path.stem}:{n}", marks=marks))
    return out


def _same(a, b) -> bool:
    if isinstance(a, (int, float)) and isinstance(b, (int, float)) and not isinstance(a, bool):
        return math.isclose(float(a), float(b), rel_tol=1e-9, abs_tol=1e-12)
    return a == b


def _span(sentence: str, exp: dict) -> tuple[int, int]:
    text = exp["text"]
    pos = -1
    for _ in range(int(exp.get("occurrence", 1))):
        pos = sentence.find(text, pos + 1)
    assert pos >= 0, f"case error: {text!r} is not in the sentence"
    return pos, pos + len(text)


def _expected(exp: dict) -> dict:
    want = {k: exp[k] for k in CHECKED if k in exp}
    want.setdefault("bound", "exact")
    want.setdefault("of_total", None)
    if exp.get("kind") and exp["kind"] != "ratio":
        want.setdefault("ratio_reading", None)
    return want


@pytest.mark.parametrize("case", _load_cases())
def test_sentence_yields_its_claims(case):
    sentence = case["sentence"]
    claims = extract_text(sentence)
    got = [c.to_contract() for c in claims]
    used: set[int] = set()
    problems = []
    for exp in case.get("claims") or []:
        s, e = _span(sentence, exp)
        want = _expected(exp)
        cands = [i for i, g in enumerate(got) if i not in used and g["start"] < e and s < g["end"]]
        if not cands:
            problems.append(f"missing {exp['text']!r} ({want})")
            continue
        best = max(cands, key=lambda i: sum(_same(got[i].get(k), v) for k, v in want.items()))
        used.add(best)
        diff = {k: (got[best].get(k), v) for k, v in want.items() if not _same(got[best].get(k), v)}
        if diff:
            problems.append(f"{exp['text']!r}: got/expected {diff}")
    for i, g in enumerate(got):
        if i not in used:
            problems.append(f"extra claim {g['text']!r} ({g['kind']} {g['value']})")
    assert not problems, f"{sentence}\n  " + "\n  ".join(problems)
