"""The interval [low, high] a claim allows, from its bound and the precision it was written with.

exact: half a unit of the last digit written (23 秒 -> [22.5, 23.5]); integer counts are points.
upper: (-, value]; lower: [value, -), except "N多 / N-odd" which stops at the next unit of the last
digit (三个多星期 -> [3, 4] weeks); approx: value +- settings.approx_tolerance (orders of magnitude:
+- settings.magnitude_tolerance in the exponent).  None is an open end.
"""

from __future__ import annotations

import math

from pipeline.extract.numbers import Num
from pipeline.extract.quantities import Quantity
from pipeline.settings import Settings


def _clean(x: float | None) -> float | None:
    if x is None:
        return None
    y = float(f"{x:.12g}")
    return int(y) if y.is_integer() and abs(y) < 1e15 else y


def _last_digit_unit(value: float) -> float:
    """10 ** (number of trailing zeros) for integers: 30 -> 10, 2000 -> 1000, 3 -> 1."""
    if value <= 0 or not float(value).is_integer():
        return 1.0
    n = int(value)
    unit = 1
    while n % 10 == 0:
        n //= 10
        unit *= 10
    return float(unit)


def interval(num: Num, q: Quantity, value: float, bound: str, kind: str, settings: Settings
             ) -> tuple[float | None, float | None]:
    """The [low, high] a claim allows, from its bound and the precision it was written with, in the quantity's
    base unit (None: an open end; a date has neither)."""
    if kind == "date":
        return None, None
    f = q.factor
    if q.magnitude:
        e = num.value
        tol = settings.magnitude_tolerance
        if bound == "upper":
            return None, _clean(10.0 ** e)
        if bound == "lower":
            return _clean(10.0 ** e), None
        return _clean(10.0 ** (e - tol)), _clean(10.0 ** (e + tol))
    if num.low is not None and num.source in ("vague", "cjk", "fraction") and num.low != num.high:
        low = num.low * f
        high = num.high * f if num.high is not None else None
        if bound == "upper":
            return None, _clean(high)
        if bound == "lower" and num.high is None:
            return _clean(low), None
        return _clean(low), _clean(high)
    if num.source == "vague" and num.high is None:
        return _clean(num.value * f), None
    half = num.step * f / 2
    point = kind == "count" and num.integer and num.step <= 1
    if bound == "exact":
        if point:
            return _clean(value), _clean(value)
        return _clean(value - half), _clean(value + half)
    if bound == "upper":
        return None, _clean(value)
    if bound == "lower":
        if q.inner_bound == "lower":
            return _clean(value), _clean(value + _last_digit_unit(num.value) * num.step * f)
        return _clean(value), None
    # approx
    tol = settings.approx_tolerance
    spread = abs(value) * tol
    low = value - spread
    high = value + spread
    if kind == "count":
        low, high = math.floor(low), math.ceil(high)
    return _clean(low), _clean(high)
