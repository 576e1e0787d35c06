"""The robustness suite's hostile inputs and helpers, built in code, so that the suite needs no binary
fixtures in the repository.  Imported by conftest.py and the tests (pytest puts this folder on sys.path).
"""

from __future__ import annotations

import codecs
import json
import os
import random
import shutil
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]
CORPUS = REPO / "corpora" / "articles"
ZH = CORPUS / "training-v0.7" / "zh" / "2020-07-30_mlperf-v07-three-camps.txt"
ZH_HANT = CORPUS / "training-v0.7" / "zh" / "2020-07-31_mlperf-v07-tw-zh-Hant.txt"
EN = CORPUS / "training-v0.7" / "en" / "2020-07-29_google-tpu-supercomputer-wire.txt"
# A sentence with claims, for files whose point is their name or encoding rather than their content.
SENTENCE = "谷歌的 4096 块 TPU v3 将 BERT 的训练时间缩短到了 23 秒。Nvidia set 8 records."


def read_jsonl(path: Path) -> list[dict]:
    return [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines() if line.strip()]


def claims_by_doc(rows: list[dict], prefix: str = "") -> dict[str, list[dict]]:
    """Claims grouped by doc (docs under `prefix` only, with the prefix removed), without the fields that
    depend on where the doc lies (doc, id; claim ids cited as evidence become their doc and offsets), so
    runs over differently placed copies of the corpus compare equal."""
    ids = {r["id"]: f"{r['doc'][len(prefix):]}@{r['start']}-{r['end']}" for r in rows}

    def placeless(value):
        if isinstance(value, str):
            return ids.get(value, value)
        if isinstance(value, list):
            return [placeless(v) for v in value]
        if isinstance(value, dict):
            return {k: placeless(v) for k, v in value.items()}
        return value

    out: dict[str, list[dict]] = {}
    for r in rows:
        if not r["doc"].startswith(prefix):
            continue
        doc = r["doc"][len(prefix):]
        out.setdefault(doc, []).append({k: placeless(v) for k, v in r.items() if k not in ("doc", "id")})
    return out


def newsclaims(*args: str, timeout: float = 300) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "pipeline.cli", *args], capture_output=True, text=True,
                          cwd=REPO, timeout=timeout)


def copy_corpus(dest: Path) -> Path:
    shutil.copytree(CORPUS, dest)
    return dest


def _sparse(path: Path, size: int) -> None:
    """A file of `size` bytes that takes no disk space (the size check must refuse it unread)."""
    with open(path, "wb") as fh:
        fh.truncate(size)


def hostile_files() -> dict[str, Callable[[Path], object]]:
    """name -> writer of one hostile input; names carry the case (spaces, CJK and emoji included)."""
    rnd = random.Random(7)
    zh, hant, en = ZH.read_text(encoding="utf-8"), ZH_HANT.read_text(encoding="utf-8"), EN.read_text(encoding="utf-8")
    zh_lines = zh.splitlines()

    def put(data: bytes) -> Callable[[Path], object]:
        return lambda p: p.write_bytes(data)

    html_hostile = ("<html><head><script>document.write('99999 seconds')</script></head>"
                    "<body onload=\"alert(4242)\"><p onclick=\"steal(31337)\">" + SENTENCE + "</p>"
                    "<img src=x onerror=\"alert(5555)\"><svg><script>alert(6666)</script></svg>"
                    "<template><p>7777 templates</p></template><noscript>8888 noscripts</noscript>"
                    "<iframe srcdoc=\"<script>alert(1212)</script>\"></iframe><style>p{width:3434px}</style>"
                    "<a href=\"javascript:alert(5656)\">link</a></body></html>")
    return {
        "empty.txt": put(b""),
        "blank.md": put(b" \n\t\n"),
        "random bytes.txt": put(bytes(rnd.randrange(256) for _ in range(4000))),
        "renamed pdf.txt": put(b"%PDF-1.4\n1 0 obj\n<< /Type /Catalog >>\nendobj\ntrailer\n%%EOF\n"),
        "renamed png.html": put(b"\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR" + bytes(rnd.randrange(256) for _ in range(500))),
        "invalid utf8.txt": put(bytes(rnd.randrange(0x80, 0x100) for _ in range(3000))),
        "damaged utf8.txt": put(SENTENCE.encode()[:10] + b"\xff" + SENTENCE.encode()[10:]),
        "gbk saved as.txt": put(zh.encode("gbk")),
        "big5.txt": put(hant.encode("big5", errors="ignore")),
        "utf16 no bom.txt": put(zh.encode("utf-16-le")),
        "utf16 pure cjk.txt": put("谷歌的训练时间缩短到了二十三秒英伟达打破了八项纪录".encode("utf-16-be")),
        "utf32 bom.txt": put(codecs.BOM_UTF32_LE + en.encode("utf-32-le")),
        "mixed utf8 gbk.txt": put("\n".join(zh_lines[:4]).encode() + b"\n" + "\n".join(zh_lines[4:]).encode("gbk")),
        "huge 100MB.txt": lambda p: _sparse(p, 100 * 1024 * 1024),
        "long line.txt": put(((zh + en) * 2).replace("\n", " ").encode()),  # ~30 KB in one paragraph
        "deep.html": put(("<div>" * 20000 + "<p>" + SENTENCE + "</p>" + "</div>" * 20000).encode()),
        "malformed.html": put(("<html><body><p>" + SENTENCE + "<p><b><i>unclosed <table><tr><td>"
                               "</div></span><<<>>> <p attr='x>").encode()),
        "scripts.html": put(html_hostile.encode()),
        "空格 and 中文 名字 🚀.txt": put(SENTENCE.encode()),
        "emoji 🎉/子目录 with space/文章 ✅.md": put(SENTENCE.encode()),
    }


def build_hostile(root: Path) -> dict[str, str]:
    """Write the hostile files under root/hostile, plus a symlink loop, a dangling link and a FIFO;
    returns doc -> case name."""
    base = root / "hostile"
    docs = {}
    for name, write in hostile_files().items():
        path = base / name
        path.parent.mkdir(parents=True, exist_ok=True)
        write(path)
        docs[f"hostile/{name}"] = name
    (base / "loop").mkdir()
    os.symlink("..", base / "loop" / "up")  # a directory loop: never followed
    os.symlink("self.txt", base / "self.txt")  # a file link to itself: ELOOP
    os.symlink("nowhere.txt", base / "dangling.txt")
    os.mkfifo(base / "fifo.txt")  # reading it would block forever
    docs.update({"hostile/self.txt": "self.txt", "hostile/dangling.txt": "dangling.txt",
                 "hostile/fifo.txt": "fifo.txt"})
    if sys.platform.startswith("linux"):
        name = os.fsdecode(b"not utf8 \xff\xfe name.txt")  # a file name that is not UTF-8
        (base / name).write_bytes(SENTENCE.encode())
        docs["hostile/not utf8 \\xff\\xfe name.txt"] = "not utf8 name"
    return docs
