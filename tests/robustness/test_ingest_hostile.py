"""Reading hostile files: each is either read (in the right encoding) or a named reason with advice."""

from __future__ import annotations

import builtins
import os
import sys
import time
from pathlib import Path

import pytest
from hostile import SENTENCE, ZH, ZH_HANT, hostile_files

from pipeline.errors import IngestError
from pipeline.ingest.decode import decode_bytes
from pipeline.ingest.read import doc_id, find_articles, read_article
from pipeline.segment.sentences import MAX_SENTENCE_CHARS, segment

READ = {  # case -> text it must decode to (None: any text, checked to hold the sentence's numbers)
    "damaged utf8.txt": None,
    "gbk saved as.txt": ZH.read_text(encoding="utf-8"),
    "utf16 no bom.txt": ZH.read_text(encoding="utf-8"),
    "utf16 pure cjk.txt": "谷歌的训练时间缩短到了二十三秒英伟达打破了八项纪录",
    "mixed utf8 gbk.txt": ZH.read_text(encoding="utf-8").rstrip("\n"),
    "空格 and 中文 名字 🚀.txt": SENTENCE,
    "emoji 🎉/子目录 with space/文章 ✅.md": SENTENCE,
}
REFUSED = {  # case -> reason code, and a word the advice must contain
    "empty.txt": ("empty", "empty"),
    "blank.md": ("empty", "empty"),
    "random bytes.txt": ("binary", "binary"),
    "renamed pdf.txt": ("binary", "PDF"),
    "renamed png.html": ("binary", "PNG"),
    "invalid utf8.txt": ("decode", "UTF-8"),
    "huge 100MB.txt": ("too_large", "max_bytes"),
}


@pytest.fixture(scope="module")
def files(tmp_path_factory: pytest.TempPathFactory) -> Path:
    root = tmp_path_factory.mktemp("cases")
    for name, write in hostile_files().items():
        (root / name).parent.mkdir(parents=True, exist_ok=True)
        write(root / name)
    return root


@pytest.mark.parametrize("case", sorted(READ))
def test_text_in_any_encoding_is_read(files: Path, case: str):
    article = read_article(files / case, files)
    expected = READ[case]
    if expected is None:
        assert "4096" in article.text and "23" in article.text and "\ufffd" in article.text
    else:
        assert article.text == expected, article.encoding
    assert article.doc == case


def test_big5_is_read_as_traditional_chinese(files: Path):
    article = read_article(files / "big5.txt", files)
    assert article.encoding == "big5" and "訓練" in article.text
    assert article.text[:200] == ZH_HANT.read_text(encoding="utf-8")[:200]


@pytest.mark.parametrize("case", sorted(REFUSED))
def test_what_is_not_an_article_is_a_named_reason(files: Path, case: str):
    reason, advice = REFUSED[case]
    with pytest.raises(IngestError) as info:
        read_article(files / case, files)
    assert info.value.reason == reason
    assert advice.lower() in info.value.detail.lower()
    assert case in str(info.value)  # the message names the file


def test_a_huge_file_is_refused_without_reading_it(files: Path, monkeypatch: pytest.MonkeyPatch):
    opened: list[object] = []
    real_open = builtins.open

    def spy(p, *args, **kwargs):
        opened.append(p)
        return real_open(p, *args, **kwargs)

    monkeypatch.setattr(builtins, "open", spy)
    with pytest.raises(IngestError, match="max_bytes"):
        read_article(files / "huge 100MB.txt", files)
    assert not opened


def test_a_file_that_grows_past_the_limit_while_read_is_refused(tmp_path: Path):
    path = tmp_path / "a.txt"
    path.write_bytes(SENTENCE.encode() * 100)
    with pytest.raises(IngestError) as info:
        read_article(path, tmp_path, max_bytes=len(SENTENCE.encode()) * 10)
    assert info.value.reason == "too_large"


@pytest.mark.parametrize(
    "case, absent",
    [("scripts.html", ["99999", "4242", "31337", "5555", "6666", "7777", "8888", "1212", "3434", "5656",
                       "alert", "script"]),
     ("malformed.html", ["attr=", "<p", "<table", "</div>"]),
     ("deep.html", ["<div>"])],
)
def test_html_gives_only_visible_text_and_runs_nothing(files: Path, case: str, absent: list[str]):
    started = time.monotonic()
    text = read_article(files / case, files).text
    assert time.monotonic() - started < 20
    assert "4096" in text and "23" in text  # the article survives
    for word in absent:
        assert word not in text


def test_symlink_loops_are_not_followed(tmp_path: Path):
    (tmp_path / "a" / "b").mkdir(parents=True)
    (tmp_path / "a" / "b" / "x.txt").write_text(SENTENCE, encoding="utf-8")
    os.symlink("../..", tmp_path / "a" / "b" / "loop")  # a/b/loop -> tmp_path: a cycle
    os.symlink("self.txt", tmp_path / "a" / "self.txt")  # a file link to itself
    started = time.monotonic()
    found = [p.relative_to(tmp_path).as_posix() for p in find_articles(tmp_path)]
    assert time.monotonic() - started < 5
    assert found == ["a/self.txt", "a/b/x.txt"]
    with pytest.raises(IngestError) as info:
        read_article(tmp_path / "a" / "self.txt", tmp_path)
    assert info.value.reason == "unreadable" and "loop" in info.value.detail


def test_a_fifo_named_txt_is_refused_without_blocking(tmp_path: Path):
    os.mkfifo(tmp_path / "pipe.txt")
    with pytest.raises(IngestError) as info:
        read_article(tmp_path / "pipe.txt", tmp_path)
    assert info.value.reason == "unreadable" and "regular file" in info.value.detail


def test_an_unreadable_file_is_a_named_reason(tmp_path: Path, monkeypatch: pytest.MonkeyPatch):
    path = tmp_path / "locked.txt"
    path.write_text(SENTENCE, encoding="utf-8")
    path.chmod(0)
    if os.geteuid() != 0:  # as root chmod 000 does not stop reads: simulate the refusal instead
        pass
    else:
        real_open = builtins.open

        def refuse(p, *args, **kwargs):
            if str(p) == str(path):
                raise PermissionError(13, "Permission denied", str(p))
            return real_open(p, *args, **kwargs)

        monkeypatch.setattr(builtins, "open", refuse)
    with pytest.raises(IngestError) as info:
        read_article(path, tmp_path)
    assert info.value.reason == "unreadable" and "Permission denied" in info.value.detail


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="file names are bytes only on Linux")
def test_a_file_name_that_is_not_utf8_gets_a_printable_doc_id(tmp_path: Path):
    name = os.fsdecode(b"bad \xff name.txt")
    (tmp_path / name).write_text(SENTENCE, encoding="utf-8")
    [path] = list(find_articles(tmp_path))
    doc = doc_id(path, tmp_path)
    assert doc == "bad \\xff name.txt"
    doc.encode("utf-8")  # writable in claims.jsonl
    assert read_article(path, tmp_path).doc == doc


def test_a_long_single_line_is_segmented_in_bounded_pieces():
    """A 225 000-character single line: sentences stay short (each claim repeats its sentence)."""
    from pipeline.records import Article

    text = ("谷歌的训练时间很短没有标点" * 3000 + "Google trained BERT quickly and without any stop " * 1500) * 2
    started = time.monotonic()
    seg = segment(Article(doc="long", text=text))
    assert time.monotonic() - started < 30
    assert max(s.end - s.start for s in seg.sentences) <= MAX_SENTENCE_CHARS
    assert all(text[s.start:s.end] == s.text for s in seg.sentences)
    covered = sum(len(s.text) for s in seg.sentences)
    assert covered >= 0.95 * len(text.replace(" ", ""))  # nothing of the line is dropped


@pytest.mark.parametrize(
    "data",
    [b"\xef\xbb\xbf\xff\xfe bad after BOM", b"\xff\xfe\x00", b"\x00" * 7, bytes(range(256)), b"\xa1" * 5,
     "中".encode("gbk") * 3 + b"\x80", b"\xfe\xff\xd8\x00"],
    ids=["bom-utf8-bad", "bom-utf16-odd", "nuls", "all-bytes", "repeated-lead", "gbk-truncated", "lone-surrogate"],
)
def test_decoding_never_raises_anything_but_a_decode_error(data: bytes):
    try:
        text, encoding = decode_bytes(data, "x.txt")
    except IngestError as exc:
        assert exc.reason == "decode"
    else:
        assert isinstance(text, str) and encoding
        text.encode("utf-8")  # no lone surrogates: the outputs stay writable


DENSE = "谷歌的训练时间缩短到了23秒，英伟达打破了八项纪录。" * 40  # few ASCII characters: few NUL bytes


@pytest.mark.parametrize(
    "name, data",
    [("dense-le.txt", DENSE.encode("utf-16-le")), ("dense-be.txt", DENSE.encode("utf-16-be")),
     ("gbk-page.html", f"<html><head><meta charset='gbk'></head><body><p>{SENTENCE}</p></body></html>".encode("gbk")),
     ("mislabeled-page.html", f"<html><head><meta charset='utf-8'></head><body><p>{SENTENCE}</p></body></html>"
      .encode("gb18030"))],
)
def test_dense_utf16_and_declared_or_mislabeled_html_charsets(tmp_path: Path, name: str, data: bytes):
    (tmp_path / name).write_bytes(data)
    text = read_article(tmp_path / name, tmp_path).text
    assert text == DENSE if name.startswith("dense") else SENTENCE in text
