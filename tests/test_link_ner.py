"""The optional transformers NER backend.  The model test builds a tiny random BERT token classifier
in tmp_path and loads it from there (never a download); it is skipped where transformers or torch is
not installed.  The merge rules are tested without transformers."""

from __future__ import annotations

import importlib.util
from pathlib import Path

import pytest

from pipeline.errors import ConfigError
from pipeline.link.kb import load_kb
from pipeline.link.ner import INSTALL_HINT, load_ner, merge_mentions
from pipeline.link.recognize import Mention, recognize

HAVE_TRANSFORMERS = importlib.util.find_spec("transformers") is not None


@pytest.mark.parametrize(
    ("text", "ner", "want"),
    [
        # the KB's mention wins where both find something
        ("谷歌的 TPU V3", [("org", 0, 2)], [("org", "google"), ("accelerator", "tpu-v3")]),
        # the model finds a KB name the ruler missed: it takes the KB id
        ("Google trained it", [("org", 0, 6)], [("org", "google")]),
        # a name the KB lacks
        ("Cerebras CS-1 trained BERT", [("org", 0, 8), ("product", 9, 13)],
         [("org", "org:unknown:cerebras"), ("product", "product:unknown:cs-1"), ("benchmark", "bert")]),
    ],
)
def test_merge(text, ner, want):
    kb = load_kb()
    kb_mentions = [m for m in recognize(text, kb) if not (text == "Google trained it")]
    ner_mentions = [Mention(t, None, s, e, text[s:e], 0.9, "ner") for t, s, e in ner]
    got = merge_mentions(kb_mentions, ner_mentions, kb, 0, text)
    assert [(m.type, m.id) for m in got] == want


def test_load_ner_needs_a_local_folder(tmp_path: Path):
    with pytest.raises(ConfigError, match="does not exist"):
        load_ner(tmp_path / "no-such-model")


@pytest.mark.skipif(HAVE_TRANSFORMERS, reason="transformers is installed")
def test_load_ner_without_transformers_says_how_to_install(tmp_path: Path):
    with pytest.raises(ConfigError) as err:
        load_ner(tmp_path)
    assert INSTALL_HINT in str(err.value)


WORDS = ["google", "nvidia", "cerebras", "trained", "bert", "in", "23", "seconds", "the", "tpu", "v3", "."]


@pytest.fixture()
def tiny_model(tmp_path: Path) -> Path:
    pytest.importorskip("transformers")
    pytest.importorskip("torch")
    from transformers import BertConfig, BertForTokenClassification, BertTokenizerFast

    vocab = tmp_path / "vocab.txt"
    vocab.write_text("\n".join(["[PAD]", "[UNK]", "[CLS]", "[SEP]", "[MASK]", *WORDS]) + "\n", encoding="utf-8")
    tokenizer = BertTokenizerFast(vocab_file=str(vocab), do_lower_case=True)
    labels = ["O", "B-ORG", "I-ORG", "B-MISC", "I-MISC"]
    config = BertConfig(vocab_size=5 + len(WORDS), hidden_size=8, num_hidden_layers=1, num_attention_heads=1,
                        intermediate_size=16, max_position_embeddings=64, num_labels=len(labels),
                        id2label=dict(enumerate(labels)), label2id={x: i for i, x in enumerate(labels)})
    model = BertForTokenClassification(config)
    out = tmp_path / "model"
    model.save_pretrained(out)
    tokenizer.save_pretrained(out)
    return out


def test_tiny_model_loads_and_runs(tiny_model: Path):
    """A random model says random things; what is checked is that it loads from disk, runs, and that
    what it yields are well-formed mentions the merge accepts."""
    kb = load_kb()
    ner = load_ner(tiny_model, kb)
    text = "Cerebras trained BERT in 23 seconds ."
    mentions = ner(text)
    for m in mentions:
        assert m.type in {"org", "misc", "product"} and 0 <= m.start < m.end <= len(text)
        assert m.how == "ner"
    merged = merge_mentions(recognize(text, kb), mentions, kb, 0, text)
    assert ("benchmark", "bert") in [(m.type, m.id) for m in merged]
