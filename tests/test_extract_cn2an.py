"""cn2an loads without its dependency's address masking (a large pattern compiled on every import), and
that masking still works when something asks for it."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]

PROBE = """
import json, sys
from pipeline.extract.numbers import _cn2an
cn2an = _cn2an()
loaded_masking = "proces.masking" in sys.modules
value = cn2an.cn2an("三千零五十", "normal")
import proces
masked = proces.mask_phone("13812345678")
import proces.masking
print(json.dumps({"loaded_masking": loaded_masking, "value": value, "masked": masked,
                  "real": proces.masking.mask_phone("13912345678")}))
"""


@pytest.fixture(scope="module")
def probe() -> dict:
    done = subprocess.run([sys.executable, "-c", PROBE], capture_output=True, text=True, check=True, cwd=ROOT)
    return json.loads(done.stdout.strip().splitlines()[-1])


def test_cn2an_loads_without_the_address_masking(probe: dict) -> None:
    assert probe["loaded_masking"] is False


def test_cn2an_reads_numerals(probe: dict) -> None:
    assert probe["value"] == 3050


@pytest.mark.parametrize("key, masked", [("masked", "138********"), ("real", "139********")])
def test_the_masking_works_when_asked_for(probe: dict, key: str, masked: str) -> None:
    assert probe[key] == masked
