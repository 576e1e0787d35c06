"""Reconciliation: each claim's deciding fact, its verdict with evidence, and conflicts between claims.

    reconcile_article(seg, claims, official, kb, settings) -> claims with verdict, official, evidence,
                                                             explanation and distortion
    find_conflicts(claims) -> groups of claims that state different values for the same fact
"""

from pipeline.reconcile.conflicts import find_conflicts
from pipeline.reconcile.engine import reconcile_article

__all__ = ["find_conflicts", "reconcile_article"]
