"""report.md: the summary and per-article tables, for pasting into a tracker or a CMS.

Cells hold untrusted article text.  A pipe would split the cell, a newline would end the row, and
Markdown renderers that pass HTML through would render `<script>`; so cells escape the Markdown
punctuation that changes structure or formatting and turn `<`, `>`, `&` into entities (rendered as the
characters themselves).
"""

from __future__ import annotations

import re
from typing import Any

from pipeline.report.fmt import VERDICT_LABELS
from pipeline.report.load import ArticleView, ReportData

# `<`, `>`, `&` become entities, then Markdown's structure and formatting characters get a backslash (the
# backslash itself first, so that the ones added are not doubled; the entities' text holds none of them).
# Each replaced only where the cell holds it: str.replace is a C scan, where re.sub with a "\\\1" template
# expanded every match in Python and str.translate looks every character of a Chinese cell up in a dict.
_ESCAPES = (("&", "&amp;"), ("<", "&lt;"), (">", "&gt;"), ("\\", "\\\\"), *((c, "\\" + c) for c in "`*_[]|~"))
# the characters cell() changes; a cell with none of them is only put on one line
_CHANGES = re.compile(r"[\\`*_\[\]|~&<>]")


def cell(value: Any) -> str:
    """One table cell: structure-safe and inert, on one line."""
    if value is None:
        return ""
    text = str(value)
    one_line = " ".join(text.split())  # newlines, tabs and runs of spaces would break the row
    if _CHANGES.search(one_line) is None:  # most cells: nothing to escape
        return one_line
    for char, escaped in _ESCAPES:
        if char in one_line:
            one_line = one_line.replace(char, escaped)
    return one_line


def code(value: Any) -> str:
    """A file name as an inline code span, on one line: a newline in a name would end the heading and let
    what follows (an <img onerror=...>) stand as raw HTML; backticks would close the span."""
    text = " ".join(str(value).split())
    if not text:
        return ""
    # a plain name reads best as code; one with markup is escaped like a cell (entities, no raw tag)
    return f"`{text}`" if cell(text) == text and "`" not in text else cell(text)


def table(headers: list[str], rows: list[list[Any]], right: tuple[int, ...] = ()) -> list[str]:
    """A Markdown table, every cell escaped; the columns in `right` are right-aligned."""
    lines = ["| " + " | ".join(cell(h) for h in headers) + " |",
             "|" + "|".join("---:" if i in right else "---" for i in range(len(headers))) + "|"]
    lines += ["| " + " | ".join(cell(v) for v in row) + " |" for row in rows]
    return lines


def _verdict(c: dict[str, Any]) -> str:
    v = str(c.get("verdict"))
    return VERDICT_LABELS.get(v, v)


def summary_lines(s: dict[str, Any], official: str | None, chart_file: str | None) -> list[str]:
    """The summary paragraph, the verdict table, the distortions and (with `chart_file`) the chart."""
    against = f" ({cell(official)})" if official else ""
    out = [f"{s['claims']} numeric claims in {s['articles']} articles, checked against the official MLPerf "
           f"results{against}. Discrepancies (contradicted or ambiguous claims): **{s['discrepancies']}**. "
           f"Conflicts (claims stating different values for one fact): **{s['conflicts']}**, "
           f"{s['cross_article']} of them across articles.", ""]
    out += table(["verdict", "claims"], [[label, n] for _, label, n in s["verdicts"]], right=(1,))
    out.append("")
    if s["distortions"]:
        out += ["Distortions: " + ", ".join(f"{cell(d.replace('_', ' '))} {n}" for d, n in s["distortions"]) + ".", ""]
    if chart_file:
        out += [f"![Claimed vs official values, log scales, coloured by verdict]({chart_file})", ""]
    return out


def conflict_lines(conflicts: list[dict[str, Any]], total: int, more: str = "") -> list[str]:
    """The conflicts section, `total` in its heading: each conflict with a table of its claims; one
    listed in full in another part links there."""
    shown = f", the first {len(conflicts)} shown" if len(conflicts) < total else ""
    out = [f"## Conflicts ({total}{shown})", ""]
    if not conflicts:
        return out + ["No two claims state different values for the same fact.", ""]
    if shown and more:
        out += [more, ""]
    for n, k in enumerate(conflicts, 1):
        if k.get("elsewhere"):  # listed in full in the part of its first wording's article
            md = str(k["elsewhere"]).removesuffix(".html") + ".md"
            out += [f"### {n}. {cell(k.get('fact'))}", "",
                    f"{len(k.get('claims') or [])} wordings, one of them in this part: listed in full in [{md}]({md}).",
                    ""]
            continue
        source = f", from {k['source_text']}" if k.get("source_text") else ""
        official = f"Official: {cell(k.get('official_display'))}{source}. " if k.get("official") is not None else ""
        scope = "across articles" if k.get("cross_article") else "within one article"
        out += [f"### {n}. {cell(k.get('fact'))}", "", f"{official}{cell(k.get('resolution'))} ({scope})", ""]
        out += table(["article", "claim", "as written", "verdict", "why"],
                     [[c.get("doc"), c.get("text"), (c.get("display") or {}).get("value"), _verdict(c),
                       c.get("explanation")] for c in k.get("claims") or []])
        out.append("")
    return out


def discrepancy_lines(disc: list[dict[str, Any]], total: int, more: str = "") -> list[str]:
    """The discrepancies section, `total` in its heading: a table of the contradicted and ambiguous claims."""
    shown = f", the first {len(disc)} shown" if len(disc) < total else ""
    out = [f"## Discrepancies ({total}{shown})", ""]
    if shown and more:
        out += [more, ""]
    if disc:
        out += table(["article", "claim", "as written", "official", "verdict", "distortion", "why"],
                     [[c["doc"], c.get("text"), c["display"]["value"], c["display"]["official"], _verdict(c),
                       c["display"]["distortion"], c.get("explanation")] for c in disc])
    else:
        out.append("No claim is contradicted or ambiguous.")
    return out + [""]


def error_lines(errors: list[dict[str, Any]]) -> list[str]:
    """The section of articles that could not be read; nothing when there are none."""
    if not errors:
        return []
    out = [f"## Articles that could not be read ({len(errors)})", ""]
    out += table(["article", "error", "detail"], [[e.get("doc"), e.get("error"), e.get("detail")] for e in errors])
    return out + [""]


def article_lines(a: ArticleView) -> list[str]:
    """One article's heading, verdict counts and table of claims."""
    heading = f"{cell(a.title)} ({code(a.doc)})" if a.title else code(a.doc)
    out = [f"### {heading}", ""]
    if not a.claims:
        return out + ["No numeric claims.", ""]
    counts = ", ".join(f"{VERDICT_LABELS[v]} {n}" for v, n in a.counts)
    out += [f"{len(a.claims)} claims: {counts}.", ""]
    out += table(["#", "claim", "kind", "as written", "interval", "official", "verdict", "distortion", "why"],
                 [[i, c.get("text"), c.get("kind"), c["display"]["value"], c["display"]["interval"],
                   c["display"]["official"], _verdict(c), c["display"]["distortion"], c.get("explanation")]
                  for i, c in enumerate(a.claims, 1)], right=(0,))
    return out + [""]


def render_markdown(report: ReportData, chart_file: str | None = "chart.svg",
                    page: dict[str, Any] | None = None) -> str:
    """The whole report, or (with `page`) one part of a multi-page report: its articles and the conflicts
    that involve them, with links to the corpus summary and the parts around it."""
    s = report.summary
    if page:
        links = [f"[corpus summary and all articles]({page['index_md']})"]
        links += [f"[previous part]({page['prev_md']})"] if page.get("prev_md") else []
        links += [f"[next part]({page['next_md']})"] if page.get("next_md") else []
        out = [f"# Fact-check report, part {page['number']} of {page['total']}", "",
               f"Articles {page['first']} to {page['last']} of {page['articles']}. " + " · ".join(links), ""]
    else:
        out = ["# Fact-check report", ""]
    out += summary_lines(s, report.official, chart_file)
    out += conflict_lines(report.conflicts, len(report.conflicts))
    out += discrepancy_lines(report.discrepancies, len(report.discrepancies))
    out += error_lines(report.errors)
    out += ["## Articles", ""]
    for a in report.articles:
        out += article_lines(a)
    return "\n".join(out).rstrip() + "\n"
