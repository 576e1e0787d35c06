"""Every command's help, read as rendered (#18): usage as a person writes it, no Python types or reprs, no
markup eaten, and a mistyped option suggested only when it is like one."""

from __future__ import annotations

import re
import sys

import pytest
import typer
from typer.testing import CliRunner

from pipeline import cli


def _commands() -> list[list[str]]:
    """The path of every command: ["run"], ["annotate", "import"], ..."""
    out = []

    def walk(cmd, path: list[str]) -> None:
        subs = getattr(cmd, "commands", None)
        if subs:
            for name, sub in subs.items():
                walk(sub, [*path, name])
        else:
            out.append(path)

    walk(typer.main.get_command(cli.app), [])
    return sorted(out)


COMMANDS = _commands()


def _help(path: list[str]) -> str:
    result = CliRunner().invoke(cli.app, [*path, "--help"], env={"COLUMNS": "200", "NO_COLOR": "1"},
                                prog_name="newsclaims")
    assert result.exit_code == 0, result.output
    return result.output


def test_every_command_is_listed() -> None:
    assert {" ".join(p) for p in COMMANDS} >= {"run", "report", "review", "extract", "evaluate", "annotate export",
                                                "annotate import", "export claimreview", "official build"}


@pytest.mark.parametrize("path", COMMANDS, ids=[" ".join(p) for p in COMMANDS])
def test_help_shows_no_python_types_or_placeholders(path: list[str]) -> None:
    text = _help(path)
    for leftover in ("<bool>", "<path>", "<str>", "<int>", "<list", "{", "}", "PosixPath", "None]"):
        assert leftover not in text, (leftover, text)
    usage = next(line for line in text.splitlines() if "Usage:" in line)
    assert re.search(r"Usage: newsclaims [a-z ]+ \[OPTIONS\]( [A-Z_]+(\.\.\.)?| \[[A-Z_]+\])*\s*$", usage), usage


def test_usage_names_the_arguments_in_capitals() -> None:
    assert "Usage: newsclaims run [OPTIONS] INPUT_DIR" in _help(["run"])
    assert "Usage: newsclaims official build [OPTIONS] RESULTS_DIR..." in _help(["official", "build"])
    assert "Usage: newsclaims evaluate [OPTIONS] RUN_DIR ANNOTATIONS" in _help(["evaluate"])


def test_brackets_in_help_are_text_not_markup() -> None:
    assert "TOML file with a [tool.newsclaims] table." in _help(["run"])


@pytest.mark.parametrize("path", [p for p in COMMANDS if p != ["extract"]], ids=lambda p: " ".join(p))
def test_options_show_what_they_take(path: list[str]) -> None:
    # a flag takes nothing; every other option names its value (DIR, FILE, N, NAME...)
    for line in _help(path).splitlines():
        m = re.match(r"[│|]?\s*\*?\s*(--[a-z-]+)(?:\s+-[a-z])?\s+([A-Za-z_|.]+)?\s{2,}", line)
        if m and m.group(1) not in ("--help", "--quiet", "--json", "--follow-symlinks", "--pdf"):
            assert m.group(2), line


def _main(capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch, *args: str) -> tuple[int, str]:
    monkeypatch.setattr(sys, "argv", ["newsclaims", *args])
    monkeypatch.setenv("COLUMNS", "200")
    try:
        cli.main()
    except SystemExit as exc:
        code = exc.code if isinstance(exc.code, int) else 1
    captured = capsys.readouterr()
    return code, captured.out + captured.err


@pytest.mark.parametrize("typed, suggested", [("--bogus", None), ("--outt", "--out"), ("--worker", "--workers"),
                                              ("--folow-symlinks", "--follow-symlinks"), ("--xyz", None)])
def test_a_mistyped_option_is_suggested_only_when_it_is_like_one(capsys, monkeypatch, typed: str,
                                                                 suggested: str | None) -> None:
    code, text = _main(capsys, monkeypatch, "run", "in", typed, "x")
    assert code == 2 and f"No such option: {typed}" in text
    if suggested:
        assert suggested in text.split("No such option")[1]
    else:
        assert "--out" not in text.split("No such option")[1] and "Possible" not in text


def test_a_missing_argument_is_named_as_in_the_usage(capsys, monkeypatch) -> None:
    code, text = _main(capsys, monkeypatch, "run")
    assert code == 2 and "Missing argument 'INPUT_DIR'" in text


@pytest.mark.parametrize("count, noun, said", [(1, "article", "1 article"), (2, "article", "2 articles"),
                                               (0, "claim", "0 claims"), (12345, "claim", "12,345 claims")])
def test_counts_read_as_a_person_writes_them(count: int, noun: str, said: str) -> None:
    assert cli._n(count, noun) == said


@pytest.mark.parametrize("args, code, said", [
    (["extract", "Google trained BERT on 4,096 TPU v3 chips in 23 seconds.", "--date", "2020-07-30"], 0,
     "supported"),
    (["extract", "Nothing to count in this sentence."], 0, "No numeric claims in this text."),
    (["extract", "   "], 2, "no text to read"),
    (["extract", "23 秒", "--date", "July 2020"], 2, "--date must be a date as YYYY-MM-DD"),
])
def test_extract_checks_the_claims_or_says_why_not(capsys, monkeypatch, args: list[str], code: int,
                                                   said: str) -> None:
    got, text = _main(capsys, monkeypatch, *args)
    assert got == code and said in text, text
    assert "unverifiable │ │" not in text  # never a verdict without its reason


def test_extract_json_carries_the_verdict_and_its_reason(capsys, monkeypatch) -> None:
    import json

    got, text = _main(capsys, monkeypatch, "extract", "Google trained BERT on 4,096 TPU v3 chips in 23 seconds.",
                      "--date", "2020-07-30", "--json")
    rows = [json.loads(x) for x in text.splitlines() if x.startswith("{")]
    assert got == 0 and rows and all(r["verdict"] and r["explanation"] for r in rows)


def test_evaluate_says_its_misses_in_words(capsys, monkeypatch, tmp_path) -> None:
    import json

    run, gold = tmp_path / "run", tmp_path / "gold"
    run.mkdir()
    gold.mkdir()
    claim = {"id": "x1", "doc": "a.txt", "lang": "en", "start": 0, "end": 10, "text": "23 seconds", "kind": "duration",
             "value": 23, "unit": "s", "bound": "exact", "verdict": "supported"}
    (run / "claims.jsonl").write_text(json.dumps({**claim, "value": 32}) + "\n", encoding="utf-8")
    (gold / "a.txt.jsonl").write_text(json.dumps({**claim, "status": "accepted"}) + "\n", encoding="utf-8")
    code, text = _main(capsys, monkeypatch, "evaluate", str(run), str(gold))
    assert code == 0 and "“23 seconds” duration 23 s, supported [0, 10)" in text
    assert "{'" not in text and "None" not in text  # no Python reprs


def test_report_says_what_it_wrote_in_one_line(capsys, monkeypatch, tmp_path) -> None:
    from pipeline.run.batch import run_batch
    from pipeline.settings import Settings

    src = tmp_path / "in"
    src.mkdir()
    for n in range(3):
        (src / f"a{n}.txt").write_text(f"Google used {n + 2} TPU chips.\n", encoding="utf-8")
    run_batch(src, tmp_path / "out", Settings())
    monkeypatch.chdir(tmp_path)
    (tmp_path / "nc.toml").write_text("[tool.newsclaims]\nreport_page_articles = 1\n", encoding="utf-8")
    code, text = _main(capsys, monkeypatch, "report", str(tmp_path / "out"), "--config", str(tmp_path / "nc.toml"))
    lines = [x for x in text.splitlines() if x.strip()]
    assert code == 0 and len(lines) == 1 and "report.html" in text and "3 report parts (report-pages/)" in text


def test_run_json_is_the_summary_for_scripts(capsys, monkeypatch, tmp_path) -> None:
    import json

    src = tmp_path / "in"
    src.mkdir()
    (src / "a.txt").write_text("Google used 4096 TPU v3 chips.\n", encoding="utf-8")
    code, text = _main(capsys, monkeypatch, "run", str(src), "--out", str(tmp_path / "out"), "-q", "--json")
    body = json.loads(text[text.index("{"):text.index("}") + 1])
    assert code == 0 and body["articles"] == 1 and body["claims"] == 1 and body["errors"] == 0
