"""Reading article folders: encodings, HTML, sidecar metadata, and bad files as clear errors."""

from __future__ import annotations

import codecs
from pathlib import Path

import pytest

from pipeline.errors import IngestError
from pipeline.ingest.read import find_articles, read_article

ZH = "谷歌的 4096 块 TPU v3 将 BERT 的训练时间缩短到了 23 秒。英伟达表示，A100 打破了八项纪录。"
ZH_HANT = "輝達表示，A100 在 MLPerf 測試中打破了八項紀錄，訓練時間縮短到 23 秒。"
EN = "Google trained BERT in 23 seconds on 4,096 TPU v3 chips."


@pytest.mark.parametrize(
    "data, expected_text",
    [
        (ZH.encode("utf-8"), ZH),
        (codecs.BOM_UTF8 + ZH.encode("utf-8"), ZH),
        (ZH.encode("utf-16"), ZH),
        (ZH.encode("utf-16-le"), ZH),
        (ZH.encode("gb18030"), ZH),
        (ZH.encode("gbk"), ZH),
        (ZH_HANT.encode("big5"), ZH_HANT),
        (EN.encode("ascii"), EN),
    ],
    ids=["utf8", "utf8-bom", "utf16-bom", "utf16le-no-bom", "gb18030", "gbk", "big5", "ascii"],
)
def test_encodings_decode_to_the_same_text(tmp_path: Path, data: bytes, expected_text: str):
    path = tmp_path / "a.txt"
    path.write_bytes(data)
    assert read_article(path, tmp_path).text == expected_text


@pytest.mark.parametrize(
    "data, reason",
    [(b"", "empty"), (b"   \n\n", "empty"), (bytes(range(256)) * 20, "binary"),
     (b"\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR" * 50, "binary")],
    ids=["empty", "blank", "bytes", "png"],
)
def test_bad_files_raise_a_named_reason(tmp_path: Path, data: bytes, reason: str):
    path = tmp_path / "bad.txt"
    path.write_bytes(data)
    with pytest.raises(IngestError) as info:
        read_article(path, tmp_path)
    assert info.value.reason == reason
    assert "bad.txt" in str(info.value)


def test_html_keeps_the_article_and_drops_boilerplate(tmp_path: Path):
    body = " ".join([EN] * 6)
    html = (f"<html><head><title>t</title><script>var x = 99;</script></head><body>"
            f"<nav><a href='/'>Home</a> <a href='/x'>Subscribe for 12 months</a></nav>"
            f"<article><h1>Records</h1><p>{body}</p><p>{body}</p></article>"
            f"<footer>Copyright 2020. Subscribe to our newsletter.</footer></body></html>")
    path = tmp_path / "page.html"
    path.write_text(html, encoding="utf-8")
    text = read_article(path, tmp_path).text
    assert "4,096 TPU v3 chips" in text
    assert "var x" not in text
    assert "newsletter" not in text


def test_finder_walks_recursively_and_skips_other_files(tmp_path: Path):
    (tmp_path / "a" / "b").mkdir(parents=True)
    for name in ("a/one.txt", "a/b/two.md", "a/b/three.HTML", "a/skip.json", "a/one.txt.meta.yaml"):
        (tmp_path / name).write_text(EN, encoding="utf-8")
    found = [p.relative_to(tmp_path).as_posix() for p in find_articles(tmp_path)]
    assert found == ["a/one.txt", "a/b/three.HTML", "a/b/two.md"]


def test_sidecar_metadata_is_read(tmp_path: Path):
    (tmp_path / "x.txt").write_text(EN, encoding="utf-8")
    (tmp_path / "x.txt.meta.yaml").write_text("date: 2020-07-30\nround: training-v0.7\n", encoding="utf-8")
    assert read_article(tmp_path / "x.txt", tmp_path).meta["round"] == "training-v0.7"
