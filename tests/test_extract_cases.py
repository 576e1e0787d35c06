"""The extraction specification: every sentence in tests/cases/<lang>/*.yaml yields exactly its claims."""

from __future__ import annotations

from pathlib import Path

import pytest
import yaml

from pipeline.review.cases import check_case

CASES = Path(__file__).parent / "cases"


def _load_cases():
    out = []
    for path in sorted(CASES.glob("*/*.yaml")):
        for n, case in enumerate(yaml.safe_load(path.read_text(encoding="utf-8")) or [], 1):
            marks = [pytest.mark.xfail(reason=case["xfail"], strict=False)] if case.get("xfail") else []
            out.append(pytest.param(case, id=f"{path.parent.name}/{path.stem}:{n}", marks=marks))
    return out


@pytest.mark.parametrize("case", _load_cases())
def test_sentence_yields_its_claims(case):
    problems = check_case(case)  # the one judge: pipeline.review.cases
    assert not problems, f"{case['sentence']}\n  " + "\n  ".join(problems)
