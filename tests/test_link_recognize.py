"""Entity mentions: every text in tests/cases/link/<lang>/mentions.yaml and near_misses.yaml yields
exactly its mentions, in text order, with offsets that point at the surface form in the original."""

from __future__ import annotations

from pathlib import Path

import pytest

from pipeline.lang.yamlio import read_yaml
from pipeline.link.recognize import analyze, recognize

CASES = Path(__file__).parent / "cases" / "link"


def _cases(name: str) -> list:
    out = []
    for path in sorted(CASES.glob(f"*/{name}.yaml")):
        for n, case in enumerate(read_yaml(path) or [], 1):
            marks = [pytest.mark.xfail(reason=case["xfail"], strict=True)] if case.get("xfail") else []
            out.append(pytest.param(case, id=f"{path.parent.name}/{name}:{n}", marks=marks))
    return out


def _got(text: str) -> list[list[str]]:
    return [[m.type, m.id or f"family:{m.family}", m.text] for m in recognize(text)]


@pytest.mark.parametrize("case", _cases("mentions"))
def test_mentions(case):
    assert _got(case["text"]) == [list(m) for m in case["mentions"]]


@pytest.mark.parametrize("case", _cases("near_misses"))
def test_near_misses(case):
    assert case.get("why"), "a near-miss case says why the non-link is right"
    assert _got(case["text"]) == [list(m) for m in case.get("mentions") or []]


@pytest.mark.parametrize("case", _cases("mentions"))
def test_offsets_point_at_the_original(case):
    text = case["text"]
    for m in recognize(text, offset=100):
        assert text[m.start - 100:m.end - 100] == m.text


@pytest.mark.parametrize(
    ("text", "surface", "low", "high"),
    [
        ("谷歌的 4096 块 TPU V3 将 VERT 的训练时间缩短到了 23 秒。", "VERT", 0.6, 0.8),
        ("Google成绩最好的MLPerf Training v-.7 Research提交方案", "v-.7", 0.6, 0.8),
        ("包括ResNet-50、BERT、SSD以及Tranformer的对应实现", "Tranformer", 0.8, 0.95),
        ("谷歌的 TPU V3", "TPU V3", 1.0, 1.0),
        ("ResNet-50是一套广泛应用于图像分类领域的模型。", "图像分类", 0.75, 0.85),
    ],
)
def test_confidence(text, surface, low, high):
    """Exact names are certain; descriptions and fuzzy matches carry less confidence."""
    (m,) = [m for m in recognize(text) if m.text == surface]
    assert low <= m.confidence <= high


@pytest.mark.parametrize(
    ("text", "key", "surface"),
    [
        ("与上一届MLPerf训练竞赛相比，新一代TPU v4较TPU v3的性能高达2.7倍。", "relative:round:previous", "上一届"),
        ("与上一届MLPerf训练竞赛相比", "cmp:paired_open", "与"),
        ("新一代TPU v4在同等规模下较TPU v3的平均性能", "cmp:open", "较"),
        ("该系统包括 4096 个 TPU v3 芯片", "anaphor:system", "该系统"),
        ("TPU v4 ran 2.7 times faster on average than Google's TPU v3 results", "cmp:open", "than"),
        ("the previous round", "relative:round:previous", "previous round"),
    ],
)
def test_cues(text, key, surface):
    assert any(key in c.keys and c.text == surface for c in analyze(text).cues)


@pytest.mark.parametrize(
    "text",
    ["比在之前比赛中创下三项记录的", "以及目前较为流行的 Volta 架构", "同等规模"],
)
def test_cue_vetoes(text):
    """比赛 is a contest and 较为 means "rather": no comparison starts there."""
    cues = analyze(text).cues
    words = {c.text for c in cues if {"cmp:open", "cmp:paired_open"} & c.keys}
    assert not words & {"较", "同"}
    assert [c.start for c in cues if c.text == "比" and "cmp:open" in c.keys] in ([], [0])


@pytest.mark.parametrize("text", [
    "谷歌的TPU v4在ResNet-50上用了28.8秒。",
    "英伟达（NVIDIA）的 DGX SuperPOD（2048 块 A100）……",
    "Pod（1024块芯片）、v3,ResNet与BERT!?「引號」『書名』",
    "3.5倍 100% 9.6x 5km 的 $5 ¥300 ￥300 2,048块",
    "it's NVIDIA's A100's—yes… 谷歌's U.S. 大学",
    "〇²ⅫＡ１００ＴＰＵ　ｖ３。。。",
])
def test_the_tokenizer_finds_cjk_suffixes_as_spacys_suffix_regex_does(text: str):
    """The recognizer answers a CJK suffix without spaCy's regex scan; the tokens must not change."""
    import spacy
    from spacy.tokenizer import Tokenizer
    from spacy.util import compile_suffix_regex

    from pipeline.link.recognize import CJK_CHAR, get_recognizer

    fast = get_recognizer().tokenizer
    suffixes = compile_suffix_regex([*spacy.blank("en").Defaults.suffixes, CJK_CHAR])
    plain = Tokenizer(fast.vocab, rules={}, prefix_search=fast.prefix_search, suffix_search=suffixes.search,
                      infix_finditer=fast.infix_finditer, url_match=None)
    assert [t.text for t in fast(text)] == [t.text for t in plain(text)]


@pytest.mark.parametrize("sentence", [
    "谷歌的 4096 块 TPU v3 在 BERT 上用时 23 秒。",
    "NVIDIA's DGX SuperPOD trained ResNet-50 in 28 seconds, compared with 1.1 minutes last year.",
    "相比上一轮，华为昇腾 910 在 MLPerf Training v1.0 中快了 2.7 倍。",
])
def test_a_sentence_met_again_elsewhere_gets_the_mentions_a_fresh_analysis_gives(sentence: str):
    from pipeline.link.kb import load_kb
    from pipeline.link.recognize import Recognizer

    fresh = Recognizer(load_kb())
    seen = Recognizer(load_kb())
    seen.analyze(sentence, 7)  # first met at offset 7 (another article), then here at 1,234
    assert seen.analyze(sentence, 1234) == fresh.analyze(sentence, 1234)
    assert seen.analyze(sentence, 0) == fresh.analyze(sentence, 0)
    assert fresh.analyze(sentence, 1234).mentions  # the table's sentences name something


@pytest.mark.parametrize(("text", "expected"), [
    ("英伟达在“GPT-3”上仅用3.4分钟", ("benchmark", "gpt3", "GPT-3")),
    ("由“Eos”系统完成", ("system", "eos", "Eos")),
    ("谷歌称其“TPU v4”芯片", ("accelerator", "tpu-v4", "TPU v4")),
    ("这套‘DGX SuperPOD’由数千块GPU组成", ("system", "dgx-superpod", "DGX SuperPOD")),
    ("在\"BERT\"上用时不到一分钟", ("benchmark", "bert", "BERT")),
])
def test_a_latin_name_quoted_inside_chinese_text_is_recognized(text: str, expected: tuple):
    """spaCy alone sees "在“GPT-3”上" as one chunk, splits the CJK characters off as infixes and keeps
    “GPT-3” one token; the text between two CJK characters is tokenized on its own, quotes split off."""
    assert expected in [(m.type, m.id, m.text) for m in recognize(text)]


@pytest.mark.parametrize(("text", "tokens"), [
    ("昇腾910", ["昇", "腾", "910"]),
    ("昇腾 910", ["昇", "腾", "910"]),
    ("昇腾  910", ["昇", "腾", " ", "910"]),
    ("在 BERT 上", ["在", "BERT", "上"]),
    ("在\nBERT上", ["在", "\n", "BERT", "上"]),
    ("“Eos”系统", ["“", "Eos", "”", "系", "统"]),
])
def test_the_space_after_a_cjk_character_is_its_trailing_space_as_in_spacy(text: str, tokens: list):
    from pipeline.link.recognize import get_recognizer

    assert [text[s:e] for s, e in get_recognizer()._tokens(text)] == tokens


@pytest.mark.parametrize("text", [
    "Llama 3.1 8B was the most popular new test.",   # popular ~ Poplar
    "The results were tabulated by the consortium.",
    "Its power draw was moderate.",
    "A bigger transformer-style model.",
])
def test_an_ordinary_lowercase_word_is_no_misspelt_name(text: str):
    assert not [m for m in recognize(text) if m.how == "fuzzy"]


@pytest.mark.parametrize("text, surface", [
    ("包括ResNet-50、BERT、SSD以及Tranformer的对应实现", "Tranformer"),
    ("Google成绩最好的MLPerf Training v-.7 Research提交方案", "v-.7"),
])
def test_a_misspelt_name_written_as_a_name_still_links(text: str, surface: str):
    assert [m.text for m in recognize(text) if m.how == "fuzzy"] == [surface]
