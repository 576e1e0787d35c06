"""spaCy is loaded without torch (2 s of every start-up), and torch stays importable afterwards."""

import importlib.util
import subprocess
import sys

import pytest

SCRIPT = """
import sys
from pipeline.spacy_import import import_spacy
spacy = import_spacy()
spacy.blank("en")
import thinc.compat
print("torch" in sys.modules, thinc.compat.has_torch)
if {check_torch}:
    import torch
    print(torch.tensor([1, 2]).sum().item())
"""


# without torch installed there is nothing to hide, and nothing to check
needs_torch = pytest.mark.skipif(importlib.util.find_spec("torch") is None,
                                 reason="torch is not installed (the 'ner' extra)")


def _run(check_torch: bool) -> list[str]:
    done = subprocess.run([sys.executable, "-c", SCRIPT.format(check_torch=check_torch)], capture_output=True,
                          text=True, timeout=120, check=True)
    return done.stdout.split()


@needs_torch
def test_spacy_loads_without_torch():
    assert _run(False) == ["False", "False"]


@needs_torch
def test_torch_still_imports_after_spacy():
    assert _run(True) == ["False", "False", "3"]


CLI_SCRIPT = """
import sys
from pipeline.spacy_import import import_spacy
spacy = import_spacy()
print("spacy.cli" in sys.modules, len(spacy.blank("zh")("测试一下")) > 0)
import spacy.cli
print(hasattr(spacy.cli, "download"), callable(spacy.info))
"""


def test_spacy_loads_without_its_command_line_which_stays_importable():
    done = subprocess.run([sys.executable, "-c", CLI_SCRIPT], capture_output=True, text=True, timeout=120, check=True)
    assert done.stdout.split() == ["False", "True", "True", "True"]
