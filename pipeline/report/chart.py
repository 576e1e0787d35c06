"""Claimed vs official values as a hand-written SVG scatter (log-log), so the report needs no plotting
library and no network.  Each point is one claim: x the official figure, y the figure as claimed, a whisker
for the interval the wording allows; points on the diagonal agree.  Units differ between claims (seconds,
chips, FLOP/s), which is why both axes are logarithmic: only the ratio to the official figure matters.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from html import escape
from typing import Any

from pipeline.report.fmt import VERDICT_LABELS, VERDICT_ORDER, is_number, quantity

# Dot colours, chosen to stay apart for the common colour-vision deficiencies (Okabe-Ito-like hues).
VERDICT_COLOURS = {
    "supported": "#1a7f37",
    "contradicted": "#d1242f",
    "ambiguous": "#d4a72c",
    "unverifiable": "#6e7781",
    "out_of_scope": "#8250df",
}
WIDTH, HEIGHT = 720, 600  # near-square plot: equal decades on both axes, so agreement is a 45° line
LEFT, RIGHT, TOP, BOTTOM = 70, 20, 40, 50
ARROW = 18  # pixels: the whisker drawn for an open-ended bound


def _attr(text: Any) -> str:
    return escape(str(text), quote=True)


def plotted(claim: dict[str, Any]) -> tuple[float, float, float | None, float | None] | None:
    """(official, claimed, low, high) on the multiplier scale, or None when the claim cannot be plotted.
    'Increased by N' is plotted as N+1 times, the reading the official multiplier is compared with."""
    value, official = claim.get("value"), claim.get("official")
    if not (is_number(value) and is_number(official)) or value <= 0 or official <= 0:
        return None
    shift = 1.0 if claim.get("ratio_reading") == "increase_by" else 0.0
    low, high = claim.get("low"), claim.get("high")
    lo = low + shift if is_number(low) and low + shift > 0 else None
    hi = high + shift if is_number(high) and high + shift > 0 else None
    return float(official), float(value) + shift, lo, hi


# Claims whose point and whisker fall within this share of a decade of each other, with the same verdict,
# are drawn once (with their count): at 60 px a decade they would cover the same pixel, and a corpus of
# thousands of articles would otherwise write one SVG element per claim.
BIN_DECADES = 0.01
# Past this many points the bins double in size (and again, as needed): a chart of a few thousand points
# is still readable and light, one of tens of thousands is neither.
MAX_POINTS = 3000
# What a drawn point needs of its claim; a thinned chart keeps only these.
POINT_FIELDS = ("id", "doc", "text", "value", "unit", "official", "verdict", "low", "high", "ratio_reading")


def _bin(claim: dict[str, Any], p: tuple[float, float, float | None, float | None], size: float) -> tuple[Any, ...]:
    return (claim.get("verdict"), *(None if v is None else round(math.log10(v) / size) for v in p))


class ChartPoints:
    """The points of a chart, collected one claim at a time: one representative per bin and verdict, with
    the number of claims it stands for, so the chart of a large corpus stays small."""

    def __init__(self, max_points: int = MAX_POINTS) -> None:
        self._bins: dict[tuple[Any, ...], dict[str, Any]] = {}
        self.claims = 0
        self.size = BIN_DECADES
        self.max_points = max_points

    def add(self, claim: dict[str, Any]) -> None:
        """Count one claim into its bin (nothing for a claim that cannot be plotted), coarsening the bins
        past `max_points`."""
        p = plotted(claim)
        if p is None:
            return
        n = int(claim.get("count") or 1)  # a point thinned before stands for its count
        self.claims += n
        self._put(claim, p, n)
        if len(self._bins) > self.max_points:
            self._coarsen()

    def _put(self, claim: dict[str, Any], p: tuple[float, float, float | None, float | None], n: int) -> None:
        key = _bin(claim, p, self.size)
        kept = self._bins.get(key)
        if kept is None:
            self._bins[key] = {**{k: claim.get(k) for k in POINT_FIELDS}, "count": n}
        else:
            kept["count"] += n

    def _coarsen(self) -> None:
        """Double the bin size until the points fit, merging the representatives already kept."""
        while len(self._bins) > self.max_points:
            kept, self._bins = list(self._bins.values()), {}
            self.size *= 2
            for point in kept:
                p = plotted(point)
                if p is not None:
                    self._put(point, p, point["count"])

    def points(self) -> list[dict[str, Any]]:
        """The representative points, each with the number of claims it stands for in "count"."""
        return list(self._bins.values())


def thinned(claims: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """The claims reduced to chart points (see ChartPoints)."""
    acc = ChartPoints()
    for c in claims:
        acc.add(c)
    return acc.points()


def _arrow(x: float, y: float, direction: int, colour: str) -> str:
    """A small arrowhead at (x, y) pointing up (-1) or down (+1)."""
    return (f'<path d="M{x - 4:.1f},{y - 5 * direction:.1f} L{x:.1f},{y:.1f} L{x + 4:.1f},{y - 5 * direction:.1f}" '
            f'fill="none" stroke="{colour}" stroke-width="2"/>')


def _domain(values: list[float]) -> tuple[int, int]:
    lo = math.floor(math.log10(min(values)))
    hi = math.ceil(math.log10(max(values)))
    if hi - lo < 2:  # a single decade would make every tick crowd one corner
        lo, hi = lo - 1, hi + 1
    return lo, hi


def _tick_label(exp: int) -> str:
    if -3 <= exp <= 5:
        return _attr(f"{10 ** exp:,}" if exp >= 0 else f"{10 ** exp:g}")
    return f'10<tspan dy="-6" font-size="9">{exp}</tspan>'


def claims_chart(claims: list[dict[str, Any]], href: Callable[[dict[str, Any]], str | None] | None = None) -> str:
    """An <svg> element (with xmlns, so it also stands alone as chart.svg).  Claim text is untrusted and
    escaped; each point carries data-claim so the report page can open the claim's details, and a link
    where `href` gives one (a multi-page report links each point to the page of its claim).  Claims that
    would be drawn on the same spot are drawn once (see ChartPoints); a point may also come with "count"."""
    points = [(c, p) for c in thinned(claims) if (p := plotted(c)) is not None]
    head = (f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {WIDTH} {HEIGHT}" width="{WIDTH}" '
            f'height="{HEIGHT}" role="img" class="chart" font-family="sans-serif" font-size="11">'
            '<title>Claimed vs official values, log scales, coloured by verdict</title>'
            f'<rect width="{WIDTH}" height="{HEIGHT}" fill="#ffffff"/>')
    if not points:
        return (head + f'<text x="{WIDTH / 2}" y="{HEIGHT / 2}" text-anchor="middle" fill="#57606a">'
                "No claim has both a numeric value and an official figure to plot.</text></svg>")
    values = [v for _, (o, y, lo, hi) in points for v in (o, y, lo, hi) if v is not None]
    e0, e1 = _domain(values)
    pw, ph = WIDTH - LEFT - RIGHT, HEIGHT - TOP - BOTTOM

    def sx(v: float) -> float:
        return LEFT + (math.log10(v) - e0) / (e1 - e0) * pw

    def sy(v: float) -> float:
        return TOP + ph - (math.log10(v) - e0) / (e1 - e0) * ph

    parts = [head]
    step = max(1, math.ceil((e1 - e0) / 9))  # at most ~10 ticks per axis
    for exp in range(e0, e1 + 1, step):
        x, y = sx(10.0 ** exp), sy(10.0 ** exp)
        parts.append(f'<line x1="{x:.1f}" y1="{TOP}" x2="{x:.1f}" y2="{TOP + ph}" stroke="#eaeef2"/>'
                     f'<line x1="{LEFT}" y1="{y:.1f}" x2="{LEFT + pw}" y2="{y:.1f}" stroke="#eaeef2"/>'
                     f'<text x="{x:.1f}" y="{TOP + ph + 16}" text-anchor="middle" fill="#57606a">'
                     f"{_tick_label(exp)}</text>"
                     f'<text x="{LEFT - 6}" y="{y + 4:.1f}" text-anchor="end" fill="#57606a">{_tick_label(exp)}</text>')
    parts.append(f'<rect x="{LEFT}" y="{TOP}" width="{pw}" height="{ph}" fill="none" stroke="#8c959f"/>'
                 f'<line x1="{sx(10.0 ** e0):.1f}" y1="{sy(10.0 ** e0):.1f}" x2="{sx(10.0 ** e1):.1f}" '
                 f'y2="{sy(10.0 ** e1):.1f}" stroke="#8c959f" stroke-dasharray="4 4"/>'
                 f'<text x="{LEFT + pw / 2}" y="{HEIGHT - 12}" text-anchor="middle" fill="#24292f">'
                 "official figure (log scale, the claim's own unit)</text>"
                 f'<text transform="translate(16 {TOP + ph / 2}) rotate(-90)" text-anchor="middle" fill="#24292f">'
                 "figure as claimed (log scale)</text>")
    # Legend across the top, in the order an editor scans: wrong first.
    lx = LEFT
    for verdict in VERDICT_ORDER:
        parts.append(f'<circle cx="{lx + 5}" cy="20" r="5" fill="{VERDICT_COLOURS[verdict]}"/>'
                     f'<text x="{lx + 14}" y="24" fill="#24292f">{_attr(VERDICT_LABELS[verdict])}</text>')
        lx += 20 + 7 * len(VERDICT_LABELS[verdict]) + 14
    top, bottom = sy(10.0 ** e1), sy(10.0 ** e0)
    # Wrong claims are drawn last so a supported one at the same spot never hides them.
    rank = {v: i for i, v in enumerate(reversed(VERDICT_ORDER))}
    for c, (official, claimed, lo, hi) in sorted(points, key=lambda cp: rank.get(str(cp[0].get("verdict")), -1)):
        verdict = c.get("verdict") or "unverifiable"
        colour = VERDICT_COLOURS.get(verdict, "#6e7781")
        cx, cy = sx(official), sy(claimed)
        # An open side ("more than", "under") gets a short arrow: a line to the plot's edge would claim
        # an extent the wording does not give, and dominate the picture.
        y_hi = sy(hi) if hi is not None else sy(lo if lo is not None else claimed) - ARROW
        y_lo = sy(lo) if lo is not None else sy(hi if hi is not None else claimed) + ARROW
        arrow = ""
        if hi is None and lo is not None:
            arrow = _arrow(cx, max(y_hi, top), -1, colour)
        elif lo is None and hi is not None:
            arrow = _arrow(cx, min(y_lo, bottom), 1, colour)
        tip = (f"{c.get('text')} ({c.get('doc')}): claimed {quantity(c.get('value'), c.get('unit'))}, "
               f"official {quantity(c.get('official'), c.get('unit'))}, {VERDICT_LABELS.get(verdict, verdict)}")
        n = int(c.get("count") or 1)
        if n > 1:
            tip += f"; {n - 1:,} more claim{'s' if n > 2 else ''} at this point"
        y1, y2 = f"{max(y_hi, TOP):.1f}", f"{min(y_lo, TOP + ph):.1f}"
        # an exact figure's interval is a point: its line would have no length, and draws nothing
        span = (f'<line x1="{cx:.1f}" y1="{y1}" x2="{cx:.1f}" y2="{y2}" stroke="{colour}" stroke-opacity="0.6" '
                'stroke-width="2"/>') if y1 != y2 else ""
        point = (f'<g class="point" data-claim="{_attr(c.get("id"))}" data-verdict="{_attr(verdict)}" '
                 f'tabindex="0" role="button"><title>{_attr(tip)}</title>{span}{arrow}'
                 f'<circle cx="{cx:.1f}" cy="{cy:.1f}" r="{5 if n == 1 else 6}" fill="{colour}" fill-opacity="0.85" '
                 'stroke="#ffffff"/></g>')
        link = href(c) if href else None
        parts.append(f'<a href="{_attr(link)}">{point}</a>' if link else point)
    parts.append("</svg>")
    return "".join(parts)

