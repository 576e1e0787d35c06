"""Linking: the entity knowledge base, mention recognition, and attaching claims to what they are about.

    from pipeline.link import load_kb, recognize, link_claims
    kb = load_kb()                                   # pipeline/lang/kb/*.yaml, validated, cached
    recognize("谷歌的 4096 块 TPU V3", kb)            # [Mention(org google), Mention(accelerator tpu-v3)]
    link_claims(sentences, claims, article.meta, kb) # claims with entities, metric, compared_to

spaCy is imported when the first recognizer is built; transformers only by `pipeline.link.ner`.
"""

from pipeline.link.attach import link_claims
from pipeline.link.kb import KnowledgeBase, load_kb
from pipeline.link.recognize import Analysis, Cue, Mention, analyze, get_recognizer, recognize

__all__ = ["Analysis", "Cue", "KnowledgeBase", "Mention", "analyze", "get_recognizer", "link_claims", "load_kb",
           "recognize"]
