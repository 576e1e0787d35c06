"""annotations/ as the review writes it: merging decisions, conflicts kept, the append-only log; evaluation
per kind, agreement between reviewers, and reviewed decisions as regression cases."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest
import yaml
from test_review_support import claims_of, review_run  # noqa: F401

from pipeline.fileio import read_jsonl
from pipeline.review.agreement import agreement, cohen_kappa
from pipeline.review.cases import check_case, review_cases, write_cases
from pipeline.review.evaluate import evaluate, load_gold
from pipeline.review.gold import LOG_NAME, GoldStore, check_doc, is_gold_file
from pipeline.review.model import CONTRACT_FIELDS, Decision

REPO = Path(__file__).resolve().parents[1]


def _decision(claim: dict, reviewer: str, action: str = "accept", **changes) -> Decision:
    row = {k: claim.get(k) for k in CONTRACT_FIELDS}
    row.update(changes)
    row.update(status="rejected" if action == "reject" else "accepted", reviewer=reviewer, id=claim["id"])
    return Decision(doc=claim["doc"], id=claim["id"], reviewer=reviewer, action=action, row=row, source="test",
                    time="2026-01-01T00:00:00Z")


@pytest.fixture()
def claim(review_run: Path) -> dict:  # noqa: F811
    return next(c for c in claims_of(review_run) if c["text"] == "23 秒")


def test_decisions_merge_without_overwriting_another_reviewer(claim: dict, tmp_path: Path) -> None:
    store = GoldStore(tmp_path)
    assert [r.outcome for r in store.apply([_decision(claim, "alice")])] == ["added"]
    assert [r.outcome for r in store.apply([_decision(claim, "alice")])] == ["unchanged"]
    # bob agrees: alice's row stays and records bob
    assert [r.outcome for r in store.apply([_decision(claim, "bob")])] == ["confirmed"]
    assert store.rows(claim["doc"])[0]["confirmed_by"] == ["bob"]
    # carol disagrees: kept, listed, not applied
    res = store.apply([_decision(claim, "carol", "correct", value=24)])
    assert res[0].outcome == "conflict" and res[0].conflict["proposed"]["value"] == 24
    rows = store.rows(claim["doc"])
    assert len(rows) == 1 and rows[0]["value"] == 23 and rows[0]["reviewer"] == "alice"
    conflicts = store.conflicts(claim["doc"])
    assert [(c["kept_reviewer"], c["proposed_reviewer"]) for c in conflicts] == [("alice", "carol")]
    # the same proposal again changes nothing; alice changing her mind to carol's reading resolves it
    assert store.apply([_decision(claim, "carol", "correct", value=24)])[0].outcome == "unchanged"
    assert store.apply([_decision(claim, "alice", "correct", value=24)])[0].outcome == "updated"
    assert store.conflicts(claim["doc"]) == []
    assert not store.path_for(claim["doc"], ".conflicts.jsonl").exists()
    log = store.log()
    assert [(e["reviewer"], e["outcome"]) for e in log] == [
        ("alice", "added"), ("bob", "confirmed"), ("carol", "conflict"), ("alice", "updated")]
    assert log[-1]["previous"]["value"] == 23 and log[-1]["row"]["value"] == 24


def test_the_log_is_only_ever_appended(claim: dict, tmp_path: Path) -> None:
    store = GoldStore(tmp_path)
    store.apply([_decision(claim, "alice")])
    first = (tmp_path / LOG_NAME).read_text(encoding="utf-8")
    store.apply([_decision(claim, "alice", "reject")])
    store.apply([_decision(claim, "alice")])
    text = (tmp_path / LOG_NAME).read_text(encoding="utf-8")
    assert text.startswith(first) and len(text.splitlines()) == 3
    assert store.rows(claim["doc"])[0]["status"] == "accepted"  # back to accepted: the state follows the last


def test_a_rejection_by_another_reviewer_is_a_conflict(claim: dict, tmp_path: Path) -> None:
    store = GoldStore(tmp_path)
    store.apply([_decision(claim, "alice")])
    assert store.apply([_decision(claim, "bob", "reject")])[0].outcome == "conflict"
    assert store.rows(claim["doc"])[0]["status"] == "accepted"


def test_an_overlapping_legacy_row_is_the_same_claim(claim: dict, tmp_path: Path) -> None:
    """Gold written before ids (annotator-1's rows) is matched by span: a different span is a conflict."""
    legacy = {k: claim[k] for k in ("doc", "lang", "start", "end", "text", "kind", "value", "unit", "bound")}
    legacy.update(end=claim["end"] - 1, text=claim["text"][:-1], status="accepted", reviewer="annotator-1")
    path = tmp_path / (claim["doc"] + ".jsonl")
    path.parent.mkdir(parents=True)
    path.write_text(json.dumps(legacy, ensure_ascii=False) + "\n", encoding="utf-8")
    res = GoldStore(tmp_path).apply([_decision(claim, "alice")])
    assert res[0].outcome == "conflict" and len(read_jsonl(path)) == 1


@pytest.mark.parametrize("doc", ["../x.txt", "/etc/passwd", "a/../../b", "a//b", "a\\..\\b", "", "a/./b"])
def test_paths_outside_the_folder_are_refused(doc: str, tmp_path: Path) -> None:
    with pytest.raises(ValueError):
        check_doc(doc)
    with pytest.raises(ValueError):
        GoldStore(tmp_path / "ann").path_for(doc)


def test_a_symlink_out_of_the_folder_is_refused(tmp_path: Path) -> None:
    (tmp_path / "ann").mkdir()
    (tmp_path / "outside").mkdir()
    (tmp_path / "ann" / "link").symlink_to(tmp_path / "outside")
    with pytest.raises(ValueError, match="outside"):
        GoldStore(tmp_path / "ann").path_for("link/x.txt")


@pytest.mark.parametrize("name, gold", [("a.txt.jsonl", True), ("a.txt.conflicts.jsonl", False),
                                        ("a.txt.entities.jsonl", False), (LOG_NAME, False), (".a.jsonl.tmp", False)])
def test_which_files_are_gold(name: str, gold: bool) -> None:
    assert is_gold_file(Path(name)) is gold


def test_evaluation_reads_only_gold_and_reports_per_kind(tmp_path: Path) -> None:
    ann = tmp_path / "ann"
    shutil.copytree(REPO / "annotations", ann)
    before = load_gold(ann)
    some = next(iter(before))
    (ann / (some + ".conflicts.jsonl")).write_text(json.dumps(before[some][0]) + "\n", encoding="utf-8")
    (ann / LOG_NAME).write_text(json.dumps({"doc": some, "start": 0, "end": 1}) + "\n", encoding="utf-8")
    assert load_gold(ann) == before
    preds = [dict(r) for rows in before.values() for r in rows]
    figures = evaluate(preds, before).as_dict()
    assert figures["span"]["all"]["f1"] == 1.0
    kinds = figures["by_kind"]
    assert set(kinds) <= {"duration", "count", "ratio", "compute", "percent", "date", "other"}
    assert sum(k["span"]["tp"] for k in kinds.values()) == figures["span"]["all"]["tp"]


@pytest.mark.parametrize("pairs, kappa", [
    ([("a", "a"), ("b", "b")], 1.0),
    ([("a", "b"), ("b", "a")], -1.0),
    ([("a", "a"), ("b", "b"), ("a", "b"), ("b", "b")], 0.5),
    ([("a", "a"), ("a", "a")], 1.0),
    ([], None),
])
def test_cohen_kappa(pairs, kappa) -> None:
    assert cohen_kappa(pairs) == kappa


def test_agreement_between_two_reviewers_of_one_article(review_run: Path, tmp_path: Path) -> None:  # noqa: F811
    claims = [c for c in claims_of(review_run) if c["doc"] == "zh/a.txt"]
    store = GoldStore(tmp_path)
    store.apply([_decision(c, "alice") for c in claims])
    bob = [_decision(c, "bob") for c in claims[:-1]]
    bob[0] = _decision(claims[0], "bob", "correct", verdict="contradicted")
    store.apply(bob + [_decision(claims[-1], "bob", "reject")])
    fig = agreement(tmp_path)
    (pair,) = fig["pairs"]
    assert pair["reviewers"] == ["alice", "bob"] and pair["claims"] == [len(claims), len(claims) - 1]
    assert pair["span_exact_f1"] == pytest.approx(2 * (len(claims) - 1) / (2 * len(claims) - 1), abs=1e-4)
    assert pair["verdict_n"] == len(claims) - 1 and pair["verdict_kappa"] < 1.0
    assert pair["status_n"] == len(claims) and pair["status_kappa"] < 1.0
    assert fig["overall"]["pairs"] == 1


def test_reviewed_decisions_become_regression_cases(review_run: Path, tmp_path: Path) -> None:  # noqa: F811
    claims = claims_of(review_run)
    store = GoldStore(tmp_path / "ann")
    ds = [_decision(c, "alice") for c in claims if c["doc"] == "en/b.txt"]
    ds += [_decision(c, "alice", "reject") for c in claims if c["doc"] == "zh/a.txt" and "1.7" in c["text"]]
    ds += [_decision(c, "alice", "correct", value=99) for c in claims if c["text"] == "23 seconds"]
    store.apply(ds)
    src = Path(json.loads((review_run / "run.json").read_text())["input_dir"])
    cases = review_cases(tmp_path / "ann", src)
    assert set(cases) == {"en", "zh"}
    # the zh sentence holds one rejected claim and one nobody decided: with the run, it is left out
    assert review_cases(tmp_path / "ann", src, run_dir=review_run).get("zh") is None
    (zh,) = cases["zh"]
    assert zh["claims"] == [] or "xfail" in zh  # all rejected: the pipeline must find nothing there
    en = cases["en"]
    wrong = [c for c in en if "xfail" in c]
    assert len(wrong) == 1 and "value" in wrong[0]["xfail"]  # 99 is not what the pipeline reads
    for c in en:
        if "xfail" not in c:
            assert check_case(c) == []
    out = write_cases(en, tmp_path / "reviewed.yaml")
    text = out.read_text(encoding="utf-8")
    assert text.count("# source: annotations/en/b.txt.jsonl") == len(en)
    loaded = yaml.safe_load(text)
    assert [c["sentence"] for c in loaded] == [c["sentence"] for c in en]
    assert all(set(c) <= {"sentence", "claims", "xfail"} for c in loaded)
