"""What the command line says when something is wrong (#17, items 13-14): one line with a coded error and
the README's exit code, never a traceback.  Run in process (pipeline.cli.main), as the console script is."""

from __future__ import annotations

import errno
import sys
from pathlib import Path

import pytest
from test_review_support import review_run  # noqa: F401

from pipeline import cli
from pipeline.errors import ConfigError
from pipeline.settings import Settings

SENTENCE = "Google used 4096 TPU v3 chips to train BERT in 23 seconds.\n"


def main(capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch, *args: str) -> tuple[int, str]:
    """Exit code and stderr of `newsclaims ARGS`."""
    monkeypatch.setattr(sys, "argv", ["newsclaims", *args])
    code = 0
    try:
        cli.main()
    except SystemExit as exc:
        code = exc.code if isinstance(exc.code, int) else 1
    return code, capsys.readouterr().err


@pytest.fixture
def articles(tmp_path: Path) -> Path:
    root = tmp_path / "in"
    root.mkdir()
    (root / "a.txt").write_text(SENTENCE, encoding="utf-8")
    return root


def _one_line_error(err: str, code: str) -> None:
    lines = [x for x in err.splitlines() if x.strip()]
    assert lines and lines[-1].startswith("error:") and f"[{code}]" in lines[-1], err
    assert "Traceback" not in err


# -- settings (item 14) -------------------------------------------------------------------------------------

@pytest.mark.parametrize("values, message", [
    ({"approx_tolerance": "x"}, "approx_tolerance must be a number"),
    ({"approx_tolerance": 1.5}, "between 0.0 and 1.0"),
    ({"approx_tolerance": True}, "must be a number"),
    ({"max_bytes": 0}, "at least 1"),
    ({"max_bytes": 2.5}, "a whole number"),
    ({"article_timeout": -1}, "at least 0.0"),
    ({"article_timeout": float("nan")}, "a number"),
    ({"follow_symlinks": "yes"}, "true or false"),
    ({"segmenter": "stanza"}, "one of lazy, spacy, jieba"),
    ({"off_topic_counted": ["language", 3]}, "a list of strings"),
    ({"report_page_articles": 0}, "at least 1"),
    ({"official": 5}, "a string"),
    ({"no_such_setting": 1}, "unknown setting"),
])
def test_a_setting_of_the_wrong_type_or_range_is_refused(values: dict, message: str) -> None:
    with pytest.raises(ConfigError, match=message):
        Settings().updated(values)


@pytest.mark.parametrize("values", [{"approx_tolerance": 0}, {"article_timeout": 0}, {"article_timeout": float("inf")},
                                    {"off_topic_counted": ["language"]}, {"official": "tables/"}])
def test_settings_in_range_are_taken(values: dict) -> None:
    got = Settings().updated(values)
    assert all(getattr(got, k) == (tuple(v) if isinstance(v, list) else v) for k, v in values.items())


def test_settings_made_in_python_are_checked_too() -> None:
    with pytest.raises(ConfigError, match="approx_tolerance"):
        Settings(approx_tolerance="x")  # type: ignore[arg-type]


def test_a_bad_setting_stops_the_run_before_any_article(articles: Path, tmp_path: Path, capsys, monkeypatch) -> None:
    config = tmp_path / "nc.toml"
    config.write_text('[tool.newsclaims]\napprox_tolerance = "x"\n', encoding="utf-8")
    code, err = main(capsys, monkeypatch, "run", str(articles), "--out", str(tmp_path / "out"), "--config",
                     str(config), "-q")
    assert code == 2 and not (tmp_path / "out").exists()
    _one_line_error(err, "E300")


def test_a_config_file_without_our_table_is_refused(articles: Path, tmp_path: Path, capsys, monkeypatch) -> None:
    config = tmp_path / "other.toml"
    config.write_text('[tool.black]\nline-length = 100\n', encoding="utf-8")
    code, err = main(capsys, monkeypatch, "run", str(articles), "--out", str(tmp_path / "out"), "--config",
                     str(config), "-q")
    assert code == 2 and "no [tool.newsclaims] table" in err  # the brackets survive the console
    _one_line_error(err, "E300")


def test_a_bad_setting_in_the_projects_pyproject_is_not_ignored(articles: Path, tmp_path: Path, capsys,
                                                                 monkeypatch) -> None:
    (tmp_path / "pyproject.toml").write_text("[tool.newsclaims]\nmax_bytes = -1\n", encoding="utf-8")
    monkeypatch.chdir(tmp_path)
    code, err = main(capsys, monkeypatch, "run", str(articles), "--out", str(tmp_path / "out"), "-q")
    assert code == 2 and "max_bytes" in err


def test_a_broken_pyproject_of_another_project_is_named_and_passed_over(articles: Path, tmp_path: Path, capsys,
                                                                        monkeypatch) -> None:
    (tmp_path / "pyproject.toml").write_text("[project\nname = ", encoding="utf-8")
    monkeypatch.chdir(tmp_path)
    code, err = main(capsys, monkeypatch, "run", str(articles), "--out", str(tmp_path / "out"), "-q")
    assert code == 0 and "warning:" in err and "pyproject.toml: not read" in err


# -- input (item 14) ----------------------------------------------------------------------------------------

def test_an_empty_input_folder_is_exit_1(tmp_path: Path, capsys, monkeypatch) -> None:
    (tmp_path / "in").mkdir()
    (tmp_path / "in" / "notes.pdf").write_bytes(b"%PDF")
    code, err = main(capsys, monkeypatch, "run", str(tmp_path / "in"), "--out", str(tmp_path / "out"), "-q")
    assert code == 1 and "no articles found" in err


@pytest.mark.parametrize("name, code", [("story.txt", 0), ("story.pdf", 2), ("story", 2)])
def test_a_file_as_input_is_one_article_or_refused(tmp_path: Path, capsys, monkeypatch, name: str, code: int) -> None:
    path = tmp_path / name
    path.write_text(SENTENCE, encoding="utf-8")
    got, err = main(capsys, monkeypatch, "run", str(path), "--out", str(tmp_path / "out"), "-q")
    assert got == code, err
    if code:
        _one_line_error(err, "E110")
    else:
        assert "1 article (" in err and "1 claim" not in err.replace("1 claims", "")


# -- outputs that cannot be written (item 13) ---------------------------------------------------------------

@pytest.mark.parametrize("number, words", [(errno.ENOSPC, "No space left on device"),
                                           (errno.EROFS, "Read-only file system"),
                                           (errno.EACCES, "Permission denied")])
def test_an_output_that_cannot_be_written_is_exit_3(articles: Path, tmp_path: Path, capsys, monkeypatch,
                                                    number: int, words: str) -> None:
    import tempfile

    real = tempfile.mkstemp

    def refuse(*args, **kwargs):
        folder = kwargs.get("dir")
        if folder is not None and str(tmp_path / "out") in str(folder):
            raise OSError(number, words, str(folder))
        return real(*args, **kwargs)

    monkeypatch.setattr(tempfile, "mkstemp", refuse)
    code, err = main(capsys, monkeypatch, "run", str(articles), "--out", str(tmp_path / "out"), "-q")
    assert code == 3 and words in err
    _one_line_error(err, "E500")


def test_an_import_into_a_gold_folder_that_cannot_be_written_is_exit_3(review_run: Path, tmp_path: Path,  # noqa: F811
                                                                      capsys, monkeypatch) -> None:
    from pipeline.review import annotate_export, gold

    def full(*args, **kwargs):
        raise OSError(errno.ENOSPC, "No space left on device")

    export = annotate_export(review_run, "prodigy", tmp_path / "t.jsonl").files[0]
    monkeypatch.setattr(gold.GoldStore, "apply", full)
    code, err = main(capsys, monkeypatch, "annotate", "import", str(export), "--to", str(tmp_path / "ann"))
    assert code == 3 and "No space left on device" in err
    _one_line_error(err, "E500")


@pytest.mark.parametrize("content, code", [(b'[{"data": {"text": "x"', "E411"), (b"\x00\x01\x02", "E411")])
def test_a_truncated_or_binary_import_file_is_exit_4(tmp_path: Path, capsys, monkeypatch, content: bytes,
                                                    code: str) -> None:
    path = tmp_path / "export.json"
    path.write_bytes(content)
    got, err = main(capsys, monkeypatch, "annotate", "import", str(path), "--to", str(tmp_path / "ann"))
    assert got == 4
    _one_line_error(err, code)


@pytest.mark.parametrize("command", ["report", "evaluate", "annotate export"])
def test_a_damaged_claims_file_is_named_with_its_line(articles: Path, tmp_path: Path, capsys, monkeypatch,
                                                       command: str) -> None:
    # (#19: errors coded in one place) a half-written or hand-edited claims.jsonl is exit 4, not a traceback
    import re

    out, gold = tmp_path / "out", tmp_path / "gold"
    assert main(capsys, monkeypatch, "run", str(articles), "--out", str(out), "-q")[0] == 0
    with (out / "claims.jsonl").open("a", encoding="utf-8") as fh:
        fh.write('{"doc": "a.txt", "text": "23 sec\n')
    gold.mkdir()
    (gold / "a.txt.jsonl").write_text('{"doc": "a.txt", "start": 0, "end": 1, "text": "G", "kind": "count"}\n')
    args = {"report": ["report", str(out)], "evaluate": ["evaluate", str(out), str(gold)],
            "annotate export": ["annotate", "export", str(out), "--to", str(tmp_path / "tasks")]}[command]
    code, err = main(capsys, monkeypatch, *args)
    assert code == 4 and re.search(r"claims\.jsonl:\d+: not a JSON line", err), err
    _one_line_error(err, "E430")
