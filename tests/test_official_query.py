"""The query API over the shipped tables, and the primary-source statements.

These read only corpora/official (what the shipped program has); the figures are the seeds' claims.
"""

from __future__ import annotations

import pickle
from pathlib import Path

import pandas as pd
import pytest

from pipeline.errors import OfficialTableError
from pipeline.official import OfficialResults, load_statements
from pipeline.official.answers import partners
from pipeline.official.query import STATEMENT_FILES

V06, V07, V10 = "training-v0.6", "training-v0.7", "training-v1.0"


@pytest.fixture(scope="module")
def official() -> OfficialResults:
    return OfficialResults()


def test_bert_on_4096_tpu_v3_chips(official: OfficialResults):
    r = official.result("google", "tpu-v3", 4096, "bert", V07)
    assert r is not None and r.record_id == "training-v0.7/Google/tpu-v3-8192-TF/bert"  # faster than the JAX entry
    assert r.published_minutes == 0.39
    assert r.seconds == pytest.approx(23.57, abs=0.01)
    assert r.published_interval_seconds == pytest.approx((23.1, 23.7))
    assert r.evidence == (r.record_id,)
    jax = official.result("google", "tpu-v3", 4096, "bert", V07, framework="jax")
    assert jax is not None and jax.minutes == pytest.approx(0.4002, abs=1e-4)


@pytest.mark.parametrize(
    ("seconds", "benchmarks", "records"),
    [
        (30, ("bert", "resnet", "ssd", "transformer"), 7),
        (33, ("bert", "resnet", "ssd", "transformer"), 8),  # adds the 2048-chip JAX SSD run (32.8 s)
        (20, ("transformer",), 1),  # JAX Transformer, 15.5 s
    ],
)
def test_google_v07_results_under_a_time(official: OfficialResults, seconds: int, benchmarks: tuple, records: int):
    got = official.count_under("google", V07, seconds)
    assert (got.count, got.benchmarks, len(got.records)) == (len(benchmarks), benchmarks, records)


@pytest.mark.parametrize(
    ("accelerator", "round_id", "who", "chips", "scored"),
    [
        ("tpu-v3", V06, None, 1024, True),  # the Cloud TPU v3 Pod (tpu-v3-2048 = 2048 cores)
        ("tpu-v3", V07, None, 4096, True),  # four times the v0.6 Pod
        ("tpu-v4", V10, None, 3456, True),  # tpu-v4-6912
        ("a100", V07, "nvidia", 2048, False),  # dgxa100_n256: its BERT logs are not in the snapshot
        ("v100", V06, "nvidia", 1536, True),  # dgx2h_n96
    ],
)
def test_largest_systems(
    official: OfficialResults, accelerator: str, round_id: str, who: str | None, chips: int, scored: bool
):
    size = official.largest_system(accelerator, round_id, who=who)
    assert size is not None and size.accelerator_count == chips
    assert bool(size.scored_records) is scored
    assert size.evidence


SPEEDUP_V4_V3 = {"gnmt": 2.22, "maskrcnn": 3.71, "resnet": 2.50, "ssd": 2.71, "transformer": 2.36}


def test_tpu_v4_vs_tpu_v3_at_64_chips(official: OfficialResults):
    v4 = official.results_for("google", "tpu-v4", 64, V07)  # tpu-v4-128, research
    v3 = official.results_for("google", "tpu-v3", 64, V06)  # tpu-v3-128, available
    s = official.speedup(v4, v3)
    assert s.ratios == pytest.approx(SPEEDUP_V4_V3, abs=0.005)
    assert s.arithmetic_mean == pytest.approx(2.70, abs=0.005)
    assert s.geometric_mean == pytest.approx(2.65, abs=0.005)
    assert s.same_scale and s.only_a == ("bert", "dlrm", "minigo") and s.only_b == ()
    assert len(s.evidence) == 10


@pytest.mark.parametrize(
    ("who", "category", "count", "of_total", "uncertain"),
    [
        # NVIDIA's largest runs lack logs, but NVIDIA published their times (slower than Google's)
        ("google", None, 6, 8, ()),
        ("nvidia", None, 2, 8, ()),
        ("nvidia", "available", 8, 8, ()),
    ],
)
def test_benchmarks_led_in_v07(
    official: OfficialResults, who: str, category: str | None, count: int, of_total: int, uncertain: tuple
):
    leads = official.leads(who, V07, category=category)
    assert (leads.count, leads.of_total, leads.uncertain) == (count, of_total, uncertain)
    assert len(leads.evidence) == of_total


@pytest.mark.parametrize(
    ("who", "count", "benchmarks"),
    [
        # Inspur's v1.0 release: four of the eight single-node benchmarks, NVIDIA and Nettrix two each
        ("inspur", 4, ("bert", "dlrm", "resnet", "ssd")),
        ("nvidia", 2, ("minigo", "rnnt")),
        ("nettrix", 2, ("maskrcnn", "unet3d")),
    ],
)
def test_single_node_leads_in_v10(official: OfficialResults, who: str, count: int, benchmarks: tuple):
    leads = official.leads(who, V10, single_node=True)
    assert (leads.count, leads.benchmarks, leads.of_total) == (count, benchmarks, 8)


def test_missing_logs_bound_a_lead_count(official: OfficialResults):
    # NVIDIA's largest v0.7 runs lack logs but their times were published: Google's six leads are sure
    assert official.leads("google", V07).possible == (6, 6)
    assert official.leads("nvidia", V07).possible == (2, 2)
    # TPU v4 entries of v1.0 without logs and without a published time leave a count open
    leads = official.leads("nvidia", "training-v1.0")
    assert leads.possible[0] <= leads.count <= leads.possible[1]


@pytest.mark.parametrize(("who", "count", "benchmarks"), [
    # NVIDIA's MiniGo logs of v0.6 are missing; the 13.5 minutes it published beat Intel's scored 14.43
    ("nvidia", 3, ("gnmt", "maskrcnn", "minigo")),
    ("intel", 0, ()),
])
def test_a_published_time_stands_in_for_missing_logs_in_a_lead(official: OfficialResults, who: str, count: int,
                                                                benchmarks: tuple):
    leads = official.leads(who, "training-v0.6")
    assert (leads.count, leads.benchmarks) == (count, benchmarks)
    assert "minigo" not in leads.uncertain


def test_fastest_and_per_chip(official: OfficialResults):
    assert official.benchmarks(V07) == ("bert", "dlrm", "gnmt", "maskrcnn", "minigo", "resnet", "ssd", "transformer")
    fastest = official.fastest("transformer", V07)
    assert fastest is not None and fastest.record_id == "training-v0.7/Google/tpu-v3-8192-JAX/transformer"
    available = official.fastest("resnet", V07, category="available")
    assert available is not None and available.org == "nvidia"
    per_chip = official.fastest("resnet", V07, per_chip=True)
    assert per_chip is not None and per_chip.chip_minutes == min(
        r.chip_minutes for r in official.select(benchmark="resnet", round=V07, division="closed") if r.chip_minutes
    )


def test_a_system_without_logs_is_found_but_has_no_figure(official: OfficialResults):
    r = official.result("nvidia", "a100", 2048, "bert", V07)
    assert r is not None and r.minutes is None and r.status == "no_score"
    assert "missing from the snapshot" in r.warning


def test_loading_another_table(tmp_path: Path, official: OfficialResults):
    import pandas as pd

    path = tmp_path / "one.csv"
    table = pd.concat([pd.read_csv(p) for p in sorted(official.path.glob("training-v*.csv"))])
    table.head(3).to_csv(path, index=False)
    assert len(OfficialResults(path).results) == 3
    table.drop(columns=["minutes"]).to_csv(path, index=False)
    with pytest.raises(OfficialTableError, match="minutes"):
        OfficialResults(path)
    (tmp_path / "empty").mkdir()
    with pytest.raises(OfficialTableError, match="no official tables"):
        OfficialResults(tmp_path / "empty")


# --- statements ------------------------------------------------------------------------------------

STATEMENTS = [
    # metric, entities, value
    ("records_claimed", {"org": "google", "round": V07}, 6),
    ("records_claimed", {"org": "google", "round": V06}, 3),
    ("records_claimed", {"org": "nvidia", "round": "training-v0.5"}, 6),
    ("benchmarks_under_seconds", {"org": "google", "round": V07}, 4),
    ("pod_chips", {"accelerator": "tpu-v3"}, 1024),
    ("per_chip_peak_compute", {"accelerator": "a100"}, 312e12),
    ("per_chip_peak_compute", {"accelerator": "v100"}, 125e12),
    ("per_chip_peak_compute", {"accelerator": "tpu-v3"}, 123e12),
    ("peak_compute", {"accelerator": "tpu-v3", "round": V07}, 4.3e17),
    ("speedup", {"accelerator": "tpu-v4"}, 2.7),
    ("launch_date", {"accelerator": "a100"}, "2020-05-14"),
]


@pytest.mark.parametrize(("metric", "entities", "value"), STATEMENTS)
def test_statements_on_file(official: OfficialResults, metric: str, entities: dict, value: object):
    found = official.statements_about(metric, **entities)
    assert found, f"no {metric} statement about {entities}"
    assert value in {s.value for s in found}
    assert all(s.source_url.startswith("https://") and s.evidence == (s.source_url,) for s in found)


def test_statements_files_are_valid_and_every_row_has_a_source(official: OfficialResults):
    df = pd.concat([pd.read_csv(Path(official.path) / name, keep_default_na=False) for name in STATEMENT_FILES])
    assert df["id"].is_unique and len(df) == len(official.statements)
    assert (df["text"].str.len() > 20).all()
    assert df["source_url"].str.match(r"https?://").all()


def test_a_statement_id_given_in_two_files_is_refused(tmp_path: Path):
    header = "id,metric,value,unit,entities,text,source_url,source_date,note\n"
    row = "x,pod_chips,1024,count,org=google,A pod of the chip holds 1024 chips.,https://example.org,,\n"
    for name in ("statements.csv", "specs.csv"):
        (tmp_path / name).write_text(header + row, encoding="utf-8")
    (tmp_path / "training-v0.7.csv").write_text((Path(OfficialResults().path) / "training-v0.7.csv").read_text())
    with pytest.raises(OfficialTableError, match="two files"):
        OfficialResults(tmp_path)


@pytest.mark.parametrize(
    ("row", "problem"),
    [
        ("x,m,1,count,org=google,text,ftp://x,,", "web address"),
        ("x,m,lots,count,org=google,text,https://x,,", "not a number"),
        ("x,m,1,count,company=google,text,https://x,,", "key=value"),
        ("x,m,1,count,org=google,text,https://x,29/07/2020,", "source_date"),
    ],
)
def test_malformed_statements_are_refused_with_the_line(tmp_path: Path, row: str, problem: str):
    path = tmp_path / "statements.csv"
    path.write_text("id,metric,value,unit,entities,text,source_url,source_date,note\n" + row + "\n")
    with pytest.raises(OfficialTableError, match=problem) as err:
        load_statements(path)
    assert "line 2" in str(err.value)


def _scan(official: OfficialResults, **f: object) -> list:
    """The rows a selection must give: every row checked against every filter, in the table's order."""
    fields = {"who": None, "accelerator": "accelerator", "chip_count": "accelerator_count", "benchmark": "benchmark",
              "round": "round"}
    out = []
    for r in official.results:
        if any(v is not None and k != "who" and getattr(r, fields[k]) != v for k, v in f.items()):
            continue
        who = str(f["who"]).lower() if f.get("who") is not None else None
        if who is not None and who not in (r.org, r.submitter.lower()) and who not in partners(r.submitter):
            continue
        out.append(r)
    return out


# selections answered from an index (round, benchmark or chip count, whichever holds fewest rows) give
# the rows a full scan gives, in the same order
@pytest.mark.parametrize(
    "filters",
    [
        {"round": V07},
        {"benchmark": "bert"},
        {"chip_count": 4096},
        {"round": V07, "benchmark": "bert"},
        {"round": V10, "chip_count": 8, "who": "nvidia"},
        {"benchmark": "resnet", "chip_count": 64, "who": "google"},
        {"round": V06, "benchmark": "ssd", "accelerator": "tpu-v3"},
        {"round": "training-v9.9"},
        {"chip_count": 3},
        {"who": "coreweave"},  # a partner of joint submissions (IBM+CoreWeave+NVIDIA, NVIDIA_CoreWeave)
        {"who": "Azure+NVIDIA"},  # a submitter folder, as written
    ],
)
def test_indexed_selection_equals_a_scan(official: OfficialResults, filters: dict):
    got = official.select(**filters)
    assert got == _scan(official, **filters)
    assert official.select(**filters) == got  # and the memoized answer is the same


@pytest.mark.parametrize("answer", [
    lambda o: o.result("google", "tpu-v3", 4096, "bert", V07),
    lambda o: o.statements[0],
    lambda o: o.leads("nvidia", V07),
    lambda o: o.largest_system("tpu-v3", V07),
    lambda o: o.speedup(o.results_for("google", "tpu-v3", 64, V06), o.results_for("google", "tpu-v4", 64, V07)),
    lambda o: o.count_under("google", V07, 60.0),
], ids=["result", "statement", "leads", "system size", "speedup", "count under"])
def test_an_answer_survives_pickling_with_what_it_derives(official: OfficialResults, answer):
    a = answer(official)
    back = pickle.loads(pickle.dumps(a))
    assert back == a and type(back) is type(a)
    if hasattr(a, "published_interval_seconds"):
        assert back.published_interval_seconds == a.published_interval_seconds
        assert back.names == a.names


def test_views_of_the_tables_share_rows_but_not_memos(official: OfficialResults):
    closed = official.restricted(division="closed")
    assert closed is official.restricted(division="closed")
    assert {r.division for r in closed.results} == {"closed"}
    assert closed.statements == official.statements
    fam = official.with_families({"tpu": frozenset({"tpu-v3", "tpu-v4"})})
    assert fam.results is official.results
    assert {r.accelerator for r in fam.select(accelerator="tpu", round=V07)} == {"tpu-v3", "tpu-v4"}
    assert official.select(accelerator="tpu", round=V07) == []
