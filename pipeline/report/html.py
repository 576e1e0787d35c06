"""report.html: one self-contained page (inline CSS, script and SVG; nothing fetched from the network).

Article text is untrusted.  Jinja's autoescape covers everything the template prints; the claim data the
script needs travels in a JSON block whose `<`, `>` and `&` are \\u-escaped, so no string in it can close the
<script> element; and a Content-Security-Policy allows only the page's own script (by hash), so even a
slip in escaping could not run injected code.
"""

from __future__ import annotations

import base64
import hashlib
from collections import Counter
from collections.abc import Iterable
from functools import lru_cache
from typing import Any

import jinja2
import orjson
from markupsafe import Markup

from pipeline.fileio import chosen_cache_dir
from pipeline.link.kb import KnowledgeBase, load_kb
from pipeline.native import PACKAGE  # a compiled module's __file__ is its build's
from pipeline.report.blocks import (
    article_blocks,
    claim_link_html,
    conflict_cards,
    discrepancy_rows,
    page_claim,
    share_strings,
    verdict_badge,
)
from pipeline.report.chart import claims_chart
from pipeline.report.fmt import ENTITY_KEYS, VERDICT_LABELS
from pipeline.report.load import ReportData

TEMPLATES = PACKAGE / "report" / "templates"
# JSON inside <script>: these characters could end the element or open a comment; U+2028/9 break old parsers.
_SCRIPT_ESCAPES = {"<": "\\u003c", ">": "\\u003e", "&": "\\u0026", "\u2028": "\\u2028", "\u2029": "\\u2029"}


class _BytecodeCache(jinja2.FileSystemBytecodeCache):
    """Jinja's own cache of compiled templates, in the user's private folder under the temp folder (Jinja
    makes it 0700 and refuses one another user owns): compiling a page's template took 0.03-0.05 s in every
    process that renders one, the parent and each part's.  A template whose source changed is compiled again
    (Jinja checks its checksum); a cache that cannot be read or written only means compiling as before."""

    def load_bytecode(self, bucket: jinja2.bccache.Bucket) -> None:
        try:
            super().load_bytecode(bucket)
        except (OSError, ValueError, EOFError):
            bucket.reset()

    def dump_bytecode(self, bucket: jinja2.bccache.Bucket) -> None:
        try:
            super().dump_bytecode(bucket)
        except OSError:
            pass


# autoescape=True, not select_autoescape: our templates end in .j2, which select_autoescape would skip.
# ChainableUndefined: a claim row missing an optional field shows an empty cell instead of failing the run.
_ENV_OPTIONS: dict[str, Any] = dict(autoescape=True, undefined=jinja2.ChainableUndefined, keep_trailing_newline=True)


def _bytecode_cache() -> jinja2.BytecodeCache | None:
    # compiled code depends on the environment's options, which Jinja's cache key leaves out: they name the files
    key = hashlib.sha1(repr(sorted((k, str(v)) for k, v in _ENV_OPTIONS.items())).encode()).hexdigest()[:12]
    # Jinja's own private folder under the temp folder, unless newsclaims' caches are kept elsewhere
    folder = chosen_cache_dir()
    try:
        return _BytecodeCache(directory=str(folder) if folder else None, pattern=f"newsclaims-report-{key}-%s.cache")
    except (OSError, RuntimeError):  # no private folder to be had (Jinja's checks): compiled in each process
        return None


@lru_cache(maxsize=1)
def template_env() -> jinja2.Environment:
    """The Jinja environment of the report's templates, autoescaping, made once."""
    env = jinja2.Environment(loader=jinja2.FileSystemLoader(TEMPLATES), bytecode_cache=_bytecode_cache(),
                             **_ENV_OPTIONS)
    # called once per claim or article: Python functions, not template macros or loops (a macro call costs ten
    # times as much; the articles' loop was a quarter of a part)
    env.globals.update(badge=badge, claim_link=claim_link, article_blocks=article_blocks,
                       conflict_cards=conflicts_html, discrepancy_rows=discrepancies_html)
    return env


def badge(verdict: Any, label: Any = None) -> Markup:
    """A verdict's badge: its label in its colour."""
    v = "" if verdict is None or isinstance(verdict, jinja2.Undefined) else str(verdict)
    return verdict_badge(v, None if label is None else str(label))


@jinja2.pass_context
def claim_link(ctx: Any, c: Any) -> Markup:
    """A claim on this page is an anchor; on another page of a multi-page report, a link to that page."""
    return Markup(claim_link_html(c, ctx.get("doc_pages"), ctx.get("this_page")))


@jinja2.pass_context
def conflicts_html(ctx: Any, conflicts: list[dict[str, Any]]) -> Markup:
    """The conflicts section's list (blocks.conflict_cards: a template loop over every card was a quarter of
    a part's template)."""
    return conflict_cards(conflicts, ctx.get("doc_pages"), ctx.get("this_page"))


@jinja2.pass_context
def discrepancies_html(ctx: Any, claims: list[dict[str, Any]]) -> Markup:
    """The discrepancies table's rows (blocks.discrepancy_rows)."""
    return discrepancy_rows(claims, ctx.get("doc_pages"), ctx.get("this_page"))


def inline_asset(name: str) -> str:
    """CSS and script are inlined verbatim: rendering them as templates would treat `{{` in code as Jinja."""
    return (TEMPLATES / name).read_text(encoding="utf-8")


def script_json(data: Any) -> str:
    """`data` as JSON that is safe inside a <script> element.  NaN and infinity are not JSON: a claim never
    should carry them, but one bad row must not break the page, so they are written as null."""
    text = orjson.dumps(data, option=orjson.OPT_NON_STR_KEYS, default=str).decode("utf-8")
    for ch, esc in _SCRIPT_ESCAPES.items():
        if ch in text:
            text = text.replace(ch, esc)
    return text


def csp_hash(script: str) -> str:
    """The Content-Security-Policy source that allows exactly this inline script."""
    return "sha256-" + base64.b64encode(hashlib.sha256(script.encode("utf-8")).digest()).decode("ascii")


def _entity_options(claims: list[dict[str, Any]]) -> list[tuple[str, list[tuple[str, int]]]]:
    """The filter's choices: each entity type's ids on the page with their claim counts (one pass)."""
    counts: dict[str, Counter[str]] = {key: Counter() for key in ENTITY_KEYS}
    for c in claims:
        for key, value in (c.get("entities") or {}).items():
            if value and key in counts:
                counts[key][str(value)] += 1
    return [(key, sorted(n.items())) for key, n in counts.items() if n]


def _add_summaries(shown: list[dict[str, Any]], claims: list[dict[str, Any]], kb: KnowledgeBase) -> None:
    """A claim in a language other than English gets its verdict in one sentence of that language (the
    explanation beside it is in English)."""
    from pipeline.report.summary import summarize

    for on_page, claim in zip(shown, claims, strict=True):
        if claim.get("lang") not in (None, "en"):
            said = summarize(claim, kb)
            if said:
                on_page["summary"] = said


def _official(path: str | None) -> Any:
    from pipeline.official.query import OfficialResults

    return OfficialResults.shared(path)  # a batch run's parent loaded them: forked workers share them


def evidence_of(official: str | None, ids: Iterable[Any], kb: KnowledgeBase) -> dict[str, dict[str, str | None]]:
    """The evidence ids as the report shows them; none when the official tables cannot be read (the page
    then shows the bare ids, as before)."""
    from pipeline.errors import NewsclaimsError
    from pipeline.report.evidence import describe

    try:
        return describe(_official(official), kb, ids)
    except (NewsclaimsError, OSError):
        return {}


def render_html(report: ReportData, chart_svg: str | None = None, page: dict[str, Any] | None = None,
                doc_pages: dict[str, str] | None = None) -> str:
    """The report page.  For one part of a multi-page report, `page` holds its number, the total, the
    article range and the links (index, prev, next), and `doc_pages` maps every article to its part's file
    name, so that a conflict's claim in another part links there."""
    js = inline_asset("report.js.j2")
    # the page shows frame and readings from their display strings: the raw records stay in claims.jsonl
    docs: dict[str, int] = {}
    claims = [page_claim(c, docs) for c in report.claims]
    kb = report.kb or load_kb()
    _add_summaries(claims, report.claims, kb)
    # each evidence id once per page, said in words with its link (a claim's panel looks it up)
    evidence = evidence_of(report.official, (e for c in report.claims for e in c.get("evidence") or ()), kb)
    strings = share_strings(claims)
    data = {"claims": claims, "docs": list(docs), "strings": strings, "evidence": evidence}
    data_json = script_json(data)
    return template_env().get_template("report.html.j2").render(
        summary=report.summary,
        conflicts=report.conflicts,
        discrepancies=report.discrepancies,
        errors=report.errors,
        articles=report.articles,
        kinds=sorted(Counter(str(c.get("kind")) for c in report.claims).items()),
        entity_options=_entity_options(report.claims),
        labels=VERDICT_LABELS,
        official=report.official,
        out_dir=str(report.out_dir),
        input_dir=str(report.input_dir) if report.input_dir else None,
        chart=Markup(chart_svg if chart_svg is not None else claims_chart(report.claims)),  # escaped when built
        css=Markup(inline_asset("report.css.j2")),
        js=Markup(js),
        script_hash=csp_hash(js),
        data_json=Markup(data_json),
        page=page,
        doc_pages=doc_pages,
        this_page=page.get("file") if page else None,
    )
