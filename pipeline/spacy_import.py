"""spaCy without PyTorch: `import_spacy()` is how newsclaims imports spaCy.

thinc (spaCy's machine-learning layer) imports torch whenever it is installed, to offer PyTorch-backed
models, and that import alone takes about 2 of the 3 seconds spaCy needs to load.  newsclaims only builds
blank pipelines with rule-based components, so while spaCy loads, torch is hidden from it.  torch stays
importable afterwards: the optional transformers NER (link/ner.py) imports it as usual.
"""

from __future__ import annotations

import importlib.abc
import sys
from types import ModuleType


class _HideTorch(importlib.abc.MetaPathFinder):
    def find_spec(self, name, path, target=None):  # noqa: ANN001 - the MetaPathFinder signature
        if name == "torch" or name.startswith("torch."):
            # thinc catches ImportError and records that torch is not available
            raise ImportError(f"{name} is not loaded with spaCy in newsclaims")
        return None


def import_spacy() -> ModuleType:
    """The spacy module; the first call in a process loads it (and thinc) without torch, unless torch is
    already loaded, in which case thinc may as well use it."""
    if "thinc.compat" in sys.modules or "torch" in sys.modules:
        import spacy

        return spacy
    hide = _HideTorch()
    sys.meta_path.insert(0, hide)
    try:
        import spacy
    finally:
        sys.meta_path.remove(hide)
    return spacy
