"""Optional: a local Hugging Face token-classification model as a second recognizer.

The knowledge base is the authority: where the model and the KB both find something, the KB's mention
stays.  What only the model finds is linked to the KB when its text is a KB alias, and otherwise gets an
id that says the KB lacks it -- `org:unknown:<name>` -- so a report can list names to add to the KB.
Model labels are mapped to entity types in linking.yaml (`ner.labels`).

Never downloads: `load_ner` reads a folder on disk (local_files_only), and transformers is imported only
here, with an install hint when it is missing.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from pipeline.errors import ConfigError
from pipeline.link.kb import KnowledgeBase, load_kb
from pipeline.link.recognize import Mention

INSTALL_HINT = "the transformers NER backend needs the 'ner' extra: pip install 'newsclaims[ner]'"


class NerBackend:
    """Callable: text -> mentions (offsets in the text) of the types linking.yaml maps labels to."""

    def __init__(self, pipe: Any, kb: KnowledgeBase) -> None:
        self.pipe = pipe
        self.kb = kb

    def __call__(self, text: str) -> list[Mention]:
        rules = self.kb.linking
        out: list[Mention] = []
        for ent in self.pipe(text):
            label = str(ent.get("entity_group") or ent.get("entity") or "")
            etype = rules.ner_labels.get(label)
            score = float(ent.get("score", 0.0))
            if etype is None or score < rules.ner_min_score:
                continue
            start, end = int(ent["start"]), int(ent["end"])
            out.append(Mention(etype, None, start, end, text[start:end], round(score, 3), "ner"))
        return out


def load_ner(model_dir: str | Path, kb: KnowledgeBase | None = None, device: int = -1) -> NerBackend:
    """A NerBackend over the token-classification model saved in `model_dir` (never a download)."""
    path = Path(model_dir)
    if not path.is_dir():
        raise ConfigError(f"NER model folder {path} does not exist (load_ner reads a local model only)")
    try:
        from transformers import AutoModelForTokenClassification, AutoTokenizer, pipeline
    except ImportError as exc:  # pragma: no cover - depends on the environment
        raise ConfigError(INSTALL_HINT) from exc
    tokenizer = AutoTokenizer.from_pretrained(str(path), local_files_only=True)
    model = AutoModelForTokenClassification.from_pretrained(str(path), local_files_only=True)
    pipe = pipeline("token-classification", model=model, tokenizer=tokenizer, aggregation_strategy="simple",
                    device=device)
    return NerBackend(pipe, kb or load_kb())


def _slug(name: str) -> str:
    return re.sub(r"\s+", "-", name.strip().lower())


def merge_mentions(kb_mentions: Sequence[Mention], ner_mentions: Sequence[Mention], kb: KnowledgeBase,
                   offset: int = 0, text: str | None = None) -> list[Mention]:
    """KB mentions plus the model's mentions that overlap none of them; `ner_mentions` have offsets in
    the sentence text, shifted here by `offset`.  A model mention whose text is a KB alias takes that
    entry's id; one the KB lacks gets `<type>:unknown:<name>`."""
    out = list(kb_mentions)
    conf = kb.linking.confidence["ner"]
    for m in ner_mentions:
        start, end = m.start + offset, m.end + offset
        if any(k.start < end and start < k.end for k in kb_mentions):
            continue
        surface = text[m.start:m.end] if text is not None else m.text
        hit = kb.lookup(surface, m.type)
        # a family word ("GPU") names no entity: keep the model's span, but as unknown
        eid = hit.id if hit is not None and hit.kind != "generic" else f"{m.type}:unknown:{_slug(surface)}"
        out.append(Mention(m.type, eid, start, end, surface, min(conf, m.confidence), "ner"))
    return sorted(out, key=lambda x: x.start)
