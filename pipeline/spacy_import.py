"""spaCy without PyTorch: `import_spacy()` is how newsclaims imports spaCy.

thinc (spaCy's machine-learning layer) imports torch whenever it is installed, to offer PyTorch-backed
models, and that import alone takes about 2 of the 3 seconds spaCy needs to load.  newsclaims only builds
blank pipelines with rule-based components, so while spaCy loads, torch is hidden from it.  torch stays
importable afterwards: the optional transformers NER (link/ner.py) imports it as usual.

spaCy's package also imports its whole command line (spacy.cli: typer apps, download helpers) for one
name, `spacy.info`: a third of a second of every `newsclaims extract`.  While spaCy loads, spacy.cli.info
is a stand-in whose `info` imports the real one when called; afterwards `import spacy.cli` loads the real
package.
"""

from __future__ import annotations

import importlib.abc
import sys
from types import ModuleType
from typing import Any


class _HideTorch(importlib.abc.MetaPathFinder):
    def find_spec(self, name, path, target=None):  # noqa: ANN001 - the MetaPathFinder signature
        """Refuse torch while spaCy loads; let every other import through."""
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
    stubs = _cli_stubs() if "spacy.cli" not in sys.modules else {}
    sys.meta_path.insert(0, hide)
    sys.modules.update(stubs)
    try:
        import spacy
    finally:
        sys.meta_path.remove(hide)
        for name, module in stubs.items():
            if sys.modules.get(name) is module:
                del sys.modules[name]
    return spacy


def _cli_stubs() -> dict[str, ModuleType]:
    """Stand-ins for spacy.cli and spacy.cli.info while spaCy's __init__ imports `info` from them."""
    package, module = ModuleType("spacy.cli"), ModuleType("spacy.cli.info")
    package.__path__ = []  # a package, so that spacy.cli.info resolves under it

    def info(*args: Any, **kwargs: Any) -> Any:  # spacy.info(), with the real module loaded on the call
        import importlib

        return importlib.import_module("spacy.cli.info").info(*args, **kwargs)

    module.info = info  # type: ignore[attr-defined]
    return {"spacy.cli": package, "spacy.cli.info": module}
