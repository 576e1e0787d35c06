"""Sentences keep article offsets, carry their own language, and Traditional text keeps its offsets."""

from __future__ import annotations

import os
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from pipeline.records import Article
from pipeline.run.process import Pipeline
from pipeline.segment.normalize import analysis_text, fold_width
from pipeline.segment.sentences import segment
from pipeline.settings import Settings


@pytest.mark.parametrize(
    "text, n, langs",
    [
        ("谷歌训练 BERT 只用了 23 秒。英伟达打破了八项纪录！", 2, ["zh", "zh"]),
        ("Google trained BERT in 0.39 minutes. The U.S. firm set 6 records.", 2, ["en", "en"]),
        ("他说：“我们需要更大的基准测试。”随后离开了。", 2, ["zh", "zh"]),
        ("第一段，含 2.7 倍。\nThis is English. It has 2 sentences.\n这是中文句子。", 4, ["zh", "en", "en", "zh"]),
    ],
    ids=["zh", "en-abbrev-decimal", "zh-quote", "mixed-paragraphs"],
)
def test_sentences_split_with_offsets_and_language(text: str, n: int, langs: list[str]):
    seg = segment(Article(doc="t", text=text))
    assert [s.lang for s in seg.sentences] == langs
    assert len(seg.sentences) == n
    for s in seg.sentences:
        assert text[s.start:s.end] == s.text


@pytest.mark.parametrize("raw, folded", [
    ("４０９６块", "4096块"), ("ＴＰＵ　ｖ３", "TPU v3"), ("２．７％", "2.7%"),
    ("训练用时２３秒，比上一轮快２．７倍，用了４０９６块ＴＰＵ", "训练用时23秒，比上一轮快2.7倍，用了4096块TPU"),
    ("no full-width forms: 谷歌 TPU v4", "no full-width forms: 谷歌 TPU v4"),
    ("＋１２％／－３ ms", "+12%/-3 ms"),
])
def test_full_width_folds_to_ascii_keeping_length(raw: str, folded: str):
    assert fold_width(raw) == folded
    assert len(fold_width(raw)) == len(raw)


def test_traditional_text_is_analysed_as_simplified_with_same_length():
    text = "輝達表示，A100 在 MLPerf 測試中打破了八項紀錄，訓練時間縮短到 23 秒。"
    analysis, traditional = analysis_text(text)
    assert traditional and len(analysis) == len(text)
    assert "辉达" in analysis and "训练时间" in analysis


@pytest.mark.parametrize("threshold, converted", [(0.03, True), (0.5, False)])
def test_the_traditional_threshold_setting_decides_what_is_converted(threshold: float, converted: bool):
    # 4 of its 22 ideographs are Traditional (訓練時間) and 1 Simplified-only (绩): 0.18, over 0.03, under 0.5
    text = "在 MLPerf 中，谷歌的成绩是 23 秒，比去年快了很多，訓練時間也短。"
    process = Pipeline(Settings(traditional_threshold=threshold))
    seg = process.analyse(Article(doc="t.txt", text=text))[0]
    assert seg.traditional is converted
    assert ("训练时间" in seg.analysis) is converted


@pytest.mark.parametrize("text, converted, kept", [
    # a Traditional sentence inside a Simplified article is read as Simplified; its neighbours stay as written
    ("谷歌公布了新一轮的成绩，提升很大。這套系統訓練模型只需要約十分鐘。其余结果下周公布。",
     "这套系统训练模型只需要约十分钟", "谷歌公布了新一轮的成绩"),
    ("本轮共有八家公司提交结果。\n輝達的叢集在六項測試中領先。\n其余厂商落后不少。",
     "辉达的丛集在六项测试中领先", "本轮共有八家公司提交结果"),
    # too few ideographs to judge the passage on its own: left as it is
    ("英伟达在本轮测试中表现突出，拿下多项第一。請見圖。", None, "請見圖"),
])
def test_a_traditional_passage_in_simplified_text_is_converted_alone(text: str, converted: str | None, kept: str):
    analysis, traditional = analysis_text(text, sentence_ends=frozenset("。！？"))
    assert len(analysis) == len(text)
    assert traditional is (converted is not None)
    assert converted is None or converted in analysis
    assert kept in analysis


def test_simplified_proper_names_are_not_converted():
    analysis, traditional = analysis_text("华为此次使用了 512 个昇腾 910 芯片。")
    assert not traditional and "昇腾" in analysis


@pytest.mark.parametrize("text", [
    "谷歌训练 BERT 只用了 23 秒。英伟达打破了八项纪录！",
    "他说：“我们需要更大的基准测试。”随后离开了。",
    "  前导空格，两个  空格\t制表符。。。  “引号”！？后面 还有",
    "TPU v3 Pod(1024 块芯片)在 ResNet-50 上用时 1.28 分钟...下一句",
    "第一句。 第二句 。第三句……第四句?!",
])
def test_chinese_tokens_and_sentences_match_spacy(text: str):
    """pipeline.segment.jieba_doc gives spaCy's blank zh pipeline's tokens and sentences without a Doc."""
    from pipeline.lang.loader import languages, load_language
    from pipeline.segment.jieba_doc import zh_doc
    from pipeline.segment.sentences import get_nlp

    doc = get_nlp(languages()["zh"])(text)
    got = zh_doc(text, frozenset(load_language("zh").terminators))
    assert got.starts == [t.idx for t in doc]
    assert got.ends == [t.idx + len(t) for t in doc]
    assert got.sentences == [(s.start_char, s.end_char) for s in doc.sents]


@pytest.mark.parametrize("text", ["谷歌 TPU v3 芯片", "Google 的 TPU", "〇²½ⅫΣσ", "\U00020000\ufa6e\u9fff", ""])
def test_cjk_share_counts_like_a_character_loop(text: str):
    from pipeline.segment.normalize import is_cjk
    from pipeline.segment.sentences import _cjk_share

    cjk = sum(map(is_cjk, text))
    letters = sum(1 for c in text if c.isalpha() and not is_cjk(c))
    assert _cjk_share(text) == (cjk / (cjk + letters / 5) if cjk + letters else 0.0)


CORPUS = Path(__file__).resolve().parents[1] / "corpora" / "articles"


def _boundaries(seg, n: int) -> set[int]:
    return {i for i in range(n + 1) if i in seg.boundaries}


@pytest.mark.parametrize("path", sorted(p for p in CORPUS.rglob("*") if p.suffix in (".txt", ".md", ".html")),
                         ids=lambda p: p.name[:30])
def test_the_segmenters_give_the_same_sentences_and_word_boundaries(path: Path):
    from pipeline.ingest.read import read_article

    article = read_article(path, CORPUS)
    by_spacy = segment(article, segmenter="spacy")
    for other in (segment(article, segmenter="jieba"), segment(article, segmenter="lazy")):
        assert other.sentences == by_spacy.sentences
        assert _boundaries(other, len(article.text)) == _boundaries(by_spacy, len(article.text))


# Characters that exercise every rule the lazy segmenter mirrors: jieba's blocks (ideographs, letters,
# digits and the punctuation it keeps inside them), one-character words, whitespace of each kind, the
# terminators and the punctuation a sentence keeps after them.
_PIECES = [*"谷歌的训练时间秒芯片块英伟达", *"aZ09.%-_#&+", " ", "  ", "\n", "\t", "\r\n", "\u3000",
           *"。！？!?…”“，、()", "...", "——", "3.5%", "v0.7", "TPU"]


@settings(max_examples=300, deadline=None)
@given(st.lists(st.sampled_from(_PIECES), min_size=1, max_size=30).map("".join))
def test_lazy_chinese_segmentation_matches_jieba_and_spacy(text: str):
    """ZhText reads sentences and word boundaries off the characters, cutting blocks only on demand; it
    must agree with zh_doc (jieba's words for the whole text), itself checked against spaCy above."""
    from pipeline.lang.loader import load_language
    from pipeline.segment.jieba_doc import ZhText, zh_doc
    from pipeline.segment.sentences import _spacy_words

    punct = frozenset(load_language("zh").terminators)
    whole = zh_doc(text, punct)
    lazy = ZhText(text, _spacy_words)
    assert lazy.sentences(punct) == whole.sentences
    assert {i for i in range(len(text) + 1) if lazy.is_boundary(i)} == set(whole.starts) | set(whole.ends)


def test_lazy_segmentation_cuts_only_the_blocks_asked_about():
    from pipeline.lang.loader import load_language
    from pipeline.segment.jieba_doc import ZhText
    from pipeline.segment.sentences import _spacy_words

    cut: list[str] = []
    text = "谷歌的超级计算机有4096块芯片，训练时间缩短到23秒。英伟达打破了八项纪录！"
    lazy = ZhText(text, lambda block: cut.append(block) or _spacy_words(block))
    second = text.index("英伟达")
    assert lazy.sentences(frozenset(load_language("zh").terminators)) == [(0, second), (second, len(text))]
    assert cut == []
    assert lazy.is_boundary(text.index("块芯片")) and not lazy.is_boundary(text.index("片"))
    assert cut == ["谷歌的超级计算机有4096块芯片"]


def test_an_unknown_segmenter_is_a_settings_error():
    from pipeline.errors import ConfigError
    from pipeline.settings import Settings

    with pytest.raises(ConfigError, match="segmenter must be one of lazy, spacy, jieba"):
        Settings().updated({"segmenter": "stanza"}, source="pyproject.toml")


JIEBA_CUTS = """
import json, sys
from pathlib import Path
import jieba
from pipeline.segment.jieba_dict import prepare
used = prepare(jieba.dt) if sys.argv[1] == "trie" else False
jieba.load_userdict("pipeline/lang/zh/user_dict.txt")
paths = sorted(Path("corpora/articles").rglob("*.txt"))
texts = [p.read_text(encoding="utf-8") for p in paths if "/zh/" in p.as_posix()]
print(json.dumps({"trie": used, "cuts": [list(jieba.cut(t)) for t in texts]}, ensure_ascii=False))
"""


def test_jiebas_dictionary_memory_mapped_cuts_every_text_the_same(tmp_path: Path):
    import json
    import subprocess
    import sys

    repo = Path(__file__).resolve().parents[1]
    env = {**os.environ, "NEWSCLAIMS_CACHE_DIR": str(tmp_path)}  # a fresh cache folder: the first run writes the trie

    def cuts(mode: str) -> dict:
        done = subprocess.run([sys.executable, "-c", JIEBA_CUTS, mode], capture_output=True, text=True, cwd=repo,
                              env=env, timeout=300, check=True)
        return json.loads(done.stdout)

    first, mapped, plain = cuts("trie"), cuts("trie"), cuts("dict")
    assert (first["trie"], mapped["trie"]) == (False, True)  # written once, then mapped
    assert mapped["cuts"] == plain["cuts"] == first["cuts"] and plain["cuts"]
    trie = next(tmp_path.glob("newsclaims-jieba-*.marisa"))
    trie.write_bytes(b"not a trie")  # a damaged file: jieba's own way again, and the same cuts
    assert cuts("trie")["cuts"] == plain["cuts"]
    assert cuts("trie")["trie"] is True  # written again
    trie.chmod(0o666)  # anyone may write it: not read (the temp folder is shared)
    assert cuts("trie") == {**plain, "trie": False}


@pytest.mark.parametrize("text", [
    "谷歌的 4096 块 TPU 将 BERT 的训练时间缩短到了 23 秒。",       # Simplified: nothing t2s changes
    "他著有一本关于超级计算机的书，是著名的作家。",               # 著 in Simplified text
    "輝達的 DGX SuperPOD 在不到一個月內就完成建置。",            # Traditional
    "看著這台機器，訓練時間縮短到了 23 秒。",                     # a phrase-only change beside others
    "Google trained BERT in 23 seconds.",                          # no CJK at all
])
def test_the_traditional_share_is_what_converting_the_whole_text_gives(text: str):
    from pipeline.segment.normalize import CJK_RE, _changed, _s2t, _t2s, traditional_share

    sample = "".join(CJK_RE.findall(text))
    trad = _changed(sample, _t2s()) if sample else 0
    expected = 0.0 if not trad or trad <= _changed(sample, _s2t()) else trad / len(sample)
    assert traditional_share(text) == expected


@pytest.fixture(scope="module")
def trie_tokenizer():
    """A jieba tokenizer of its own over the memory-mapped dictionary (the trie is written on first use)."""
    import jieba

    from pipeline.segment.jieba_dict import prepare

    for _ in range(2):
        tokenizer = jieba.Tokenizer()
        if prepare(tokenizer):
            return tokenizer
    pytest.skip("jieba's trie cannot be written here (marisa-trie or the temp folder)")


# invented sentences of the kinds a Chinese article cuts: names and numbers run together, a traditional
# form, full-width punctuation, words the dictionary lacks, Latin and digits only, nothing
DAG_TEXTS = [
    "谷歌的超级计算机在23秒内训练完BERT模型。",
    "英伟达DGX SuperPOD用了2048块A100，比上一轮快2.7倍！",
    "据报道，華為昇腾910的算力提高了一倍多，达到256PFLOPS。",
    "浪潮与阿里云分别提交了七项和三项成绩",
    "abc 123 ，，。。",
    "",
]


@pytest.mark.parametrize("text", DAG_TEXTS)
def test_the_compiled_word_graph_and_route_are_jiebas(trie_tokenizer, text: str):
    import jieba

    from pipeline.segment.jieba_dag import DagCutter

    cutter = DagCutter(trie_tokenizer, trie_tokenizer.FREQ)
    dag = cutter.get_DAG(text)
    assert dag == jieba.Tokenizer.get_DAG(trie_tokenizer, text)
    ours: dict = {}
    theirs: dict = {}
    cutter.calc(text, dag, ours)
    jieba.Tokenizer.calc(trie_tokenizer, text, dag, theirs)
    assert ours == theirs


def test_a_word_added_later_is_in_the_next_graph(trie_tokenizer):
    import jieba

    from pipeline.segment.jieba_dag import DagCutter

    text = "昇腾超节点集群训练"
    cutter = DagCutter(trie_tokenizer, trie_tokenizer.FREQ)
    before = cutter.get_DAG(text)  # remembered fragments: the word added next must not be missed
    trie_tokenizer.add_word("昇腾超节点集群", 50000)
    after = cutter.get_DAG(text)
    assert after == jieba.Tokenizer.get_DAG(trie_tokenizer, text) and after != before
    assert 6 in after[0]


def test_the_memo_stops_growing_at_its_limit(trie_tokenizer, monkeypatch: pytest.MonkeyPatch):
    import jieba

    from pipeline.segment import jieba_dag

    monkeypatch.setattr(jieba_dag, "MEMO_MAX", 5)
    cutter = jieba_dag.DagCutter(trie_tokenizer, trie_tokenizer.FREQ)
    text = DAG_TEXTS[2]
    assert cutter.get_DAG(text) == jieba.Tokenizer.get_DAG(trie_tokenizer, text)
    assert len(cutter.memo) == 5
