"""The report page's article blocks (each article's text with its claims marked, and its claims table), as
HTML written here rather than in the template: the template's loop over every text segment and every claim
was a quarter of a report part's rendering, and this module is compiled with the stages (pipeline/native.py).

Every article string is escaped as markupsafe escapes it (text_html), as the template's autoescape did; the
output is what the template printed, byte for byte, so the page's script and styles see the same elements.
"""

from __future__ import annotations

from functools import lru_cache
from typing import Any

from markupsafe import Markup

from pipeline.report.fmt import VERDICT_LABELS
from pipeline.report.load import ArticleView, Segment

CLAIM_HEAD = ('<thead><tr><th>#</th><th>claim</th><th>kind</th><th>as written</th><th>interval</th>'
              '<th>official</th><th>verdict</th><th>distortion</th></tr></thead>')


# markupsafe.escape's replacements, applied to a str as str methods: the blocks are built as one str, and
# escape() builds a Markup of every field (a Python-level constructor) where a page holds thousands
_ESCAPES = (("&", "&amp;"), ("<", "&lt;"), (">", "&gt;"), ("'", "&#39;"), ('"', "&#34;"))


def text_html(text: str) -> str:
    """`text` escaped for HTML, as str(markupsafe.escape(text)) gives it."""
    for char, entity in _ESCAPES:
        if char in text:
            text = text.replace(char, entity)
    return text


@lru_cache(maxsize=256)
def _badge(v: str, label: str | None = None) -> str:
    return f'<span class="badge v-{text_html(v)}">{text_html(label or VERDICT_LABELS.get(v, v))}</span>'


def verdict_badge(v: str, label: str | None = None) -> Markup:
    """A verdict's badge: its label in its colour."""
    return Markup(_badge(v, label))


def _get(c: Any, key: str) -> Any:
    """A field as the template reads `c.key`: a dict's item, else an attribute (None when missing)."""
    return c.get(key) if isinstance(c, dict) else getattr(c, key, None)


def _field(c: Any, key: str) -> str:
    value = _get(c, key)
    return text_html("" if value is None and not (isinstance(c, dict) and key in c) else str(value))


def field_html(c: Any, key: str) -> Markup:
    """A claim's field as the page prints it, escaped: empty when missing (a present None prints "None")."""
    return Markup(_field(c, key))


def _segments(out: list[str], segments: list[Segment]) -> None:
    for s in segments:
        text = text_html(s.text)
        if s.claim:
            claim, verdict = text_html(s.claim), text_html(str(s.verdict))
            anchor = f' id="c-{claim}"' if s.first else ""
            out.append(f'<mark class="claim v-{verdict}" data-claim="{claim}" data-verdict="{verdict}"{anchor} '
                       f'tabindex="0" role="button">{text}</mark>')
        else:
            out.append(text)


def _claim_rows(out: list[str], claims: list[dict[str, Any]]) -> None:
    for i, c in enumerate(claims, 1):
        shown = c.get("display")
        verdict = c.get("verdict")
        # a row to a line, without indentation: a page holds thousands of rows
        out.append(f'<tr class="claim-row" data-claim="{_field(c, "id")}" '
                   f'data-verdict="{_field(c, "verdict")}"><td class="num">{i}</td>'
                   f'<td>{_field(c, "text")}</td><td>{_field(c, "kind")}</td>'
                   f'<td>{_field(shown, "value")}</td><td>{_field(shown, "interval")}</td>'
                   f'<td>{_field(shown, "official")}</td>'
                   f'<td>{_badge("" if verdict is None else str(verdict))}</td>'
                   f'<td>{_field(shown, "distortion")}</td></tr>\n')


def article_block(a: ArticleView, number: int) -> str:
    """One article's block of the page (`number` counts from 1: its anchor, doc-N)."""
    doc = text_html(a.doc)
    langs = a.langs
    title = text_html(a.title or a.doc)
    out = [f'\n  <article class="doc" data-doc="{doc}" data-langs="{" ".join(text_html(x) for x in langs)}" '
           f'id="doc-{number}">\n    <h2>{title}</h2>\n    <p class="muted doc-meta"><span class="doc">{doc}</span>']
    for key in ("date", "source"):
        if a.meta.get(key):
            out.append(f" · {text_html(str(a.meta.get(key)))}")
    out.append(f"\n      · {len(a.claims)} claims")
    for v, n in a.counts:
        out.append(f" · {_badge('' if v is None else str(v))} {n}")
    out.append("</p>\n    ")
    if a.note:
        out.append(f'<p class="note">{text_html(a.note)}</p>')
    out.append(f'\n    <details {"open" if a.claims else ""}><summary>'
               f'{"article text" if a.full_text else "sentences"}</summary>\n    ')
    if a.full_text:
        out.append(f'\n      <div class="text" lang="{text_html(langs[0]) if langs else ""}">')
        _segments(out, a.blocks[0])
        out.append("</div>\n    ")
    else:
        out.append("\n      ")
        for block in a.blocks:
            out.append('<p class="text sentence-block">')
            _segments(out, block)
            out.append("</p>")
        out.append("\n    ")
    out.append("\n    </details>\n    ")
    if a.claims:
        out.append(f'\n    <details class="claim-table"><summary>claims table ({len(a.claims)})</summary>\n'
                   f'    <table class="claims">\n      {CLAIM_HEAD}\n      <tbody>\n      ')
        _claim_rows(out, a.claims)
        out.append("\n      </tbody>\n    </table>\n    </details>\n    ")
    out.append("\n  </article>\n  ")
    return "".join(out)


def article_blocks(articles: list[ArticleView]) -> Markup:
    """Every article's block, in order (built from escaped parts, so safe to print as it is)."""
    return Markup("".join([article_block(a, n) for n, a in enumerate(articles, 1)]))


def claim_link_html(c: dict[str, Any], doc_pages: dict[str, str] | None, this_page: str | None) -> str:
    """A claim on this page is an anchor; on another page of a multi-page report, a link to that page."""
    target = doc_pages.get(c.get("doc")) if doc_pages else None  # type: ignore[arg-type]
    href = text_html(str(target)) if target and target != this_page else ""
    cid = _field(c, "id")
    return (f'<a class="claim-link v-{_field(c, "verdict")}" href="{href}#c-{cid}" data-claim="{cid}">'
            f'{_field(c, "text")}</a>')


def _conflict_card(out: list[str], c: dict[str, Any], doc_pages: dict[str, str] | None, this_page: str | None) -> None:
    display = c.get("display")
    quote = ""
    if display:
        reading = f", {_field(display, 'reading')}" if _get(display, "reading") else ""
        quote = f' <span class="muted">= {_field(display, "value")}{reading}</span>'
    verdict = c.get("verdict")
    sentence = f'<p class="sentence">{_field(c, "sentence")}</p>' if c.get("sentence") else ""
    summary = (f'<p class="summary-line" lang="{_field(c, "lang")}">{_field(c, "summary")}</p>'
               if c.get("summary") else "")
    out.append(f'\n      <div class="card v-{_field(c, "verdict")}">\n        <div class="card-head">'
               f'{_badge("" if verdict is None else str(verdict))} <span class="doc">{_field(c, "doc")}</span></div>\n'
               f'        <p class="quote">{claim_link_html(c, doc_pages, this_page)}{quote}</p>\n'
               f'        {sentence}\n        {summary}\n'
               f'        <p class="explanation">{_field(c, "explanation")}</p>\n      </div>\n      ')


def conflict_cards(conflicts: list[dict[str, Any]], doc_pages: dict[str, str] | None, this_page: str | None
                   ) -> Markup:
    """The conflicts section's list (what report.html.j2's loop over the conflicts printed, byte for byte):
    a conflict listed in full, or, in a part that holds one of its wordings but not the first, a link to
    where it is listed."""
    out: list[str] = []
    for k in conflicts:
        cross = " cross" if k.get("cross_article") else ""
        claims = k.get("claims") or []
        if k.get("elsewhere"):
            out.append(f'\n  \n  <article class="conflict elsewhere{cross}">\n    <h3>{_field(k, "fact")}</h3>\n'
                       f'    <p class="muted">{len(claims)} wordings, one of them in this part: listed in full '
                       f'<a href="{_field(k, "elsewhere")}#k-{_field(k, "key")}">with its first article</a>.</p>\n'
                       '  </article>\n  \n  ')
            continue
        official = ""
        if k.get("official") is not None:
            source = f", from {_field(k, 'source_text')}" if k.get("source_text") else ""
            official = f"<b>Official:</b> {_field(k, 'official_display')}{source}. "
        out.append(f'\n  \n  <article class="conflict{cross}" id="k-{_field(k, "key")}">\n'
                   f'    <h3>{_field(k, "fact")}</h3>\n'
                   f'    <p class="resolution">{official}{_field(k, "resolution")}</p>\n'
                   '    <div class="side-by-side">\n      ')
        for c in claims:
            _conflict_card(out, c, doc_pages, this_page)
        out.append("\n    </div>\n  </article>\n  \n  ")
    if not conflicts:
        out.append("\n  <p>No conflicts: no two claims state different values for the same fact.</p>\n  ")
    return Markup("".join(out))


def discrepancy_rows(claims: list[dict[str, Any]], doc_pages: dict[str, str] | None, this_page: str | None
                     ) -> Markup:
    """The discrepancies table's rows (what report.html.j2's loop over them printed, byte for byte)."""
    out: list[str] = []
    for c in claims:
        display, verdict = c.get("display"), c.get("verdict")
        out.append(f'\n      <tr class="disc-row" data-verdict="{_field(c, "verdict")}"><td class="doc">'
                   f'{_field(c, "doc")}</td><td>{claim_link_html(c, doc_pages, this_page)}</td>\n'
                   f'        <td>{_field(display, "value")}</td><td>{_field(display, "official")}</td>'
                   f'<td>{_badge("" if verdict is None else str(verdict))}</td>\n'
                   f'        <td>{_field(display, "distortion")}</td><td class="explanation">'
                   f'{_field(c, "explanation")}</td></tr>\n    ')
    return Markup("".join(out))


# What a page's script gets of each claim (html.render_html builds the page): here rather than in html.py
# to be compiled with the stages, since a part holds thousands of claims.
# The fields of a claim the page's script reads (report.js.j2): the rest stay in claims.jsonl, where a
# reader who wants every field has them (at 10,000 articles the unread ones were a third of the report)
ON_PAGE = ("id", "doc", "lang", "sentence", "start", "end", "text", "kind", "unit", "metric", "entities", "verdict",
           "official", "evidence", "explanation", "display")
DISPLAY_ON_PAGE = frozenset(("value", "interval", "official", "reading", "bound", "compared_to", "frame", "readings",
                             "verdict", "distortion"))


def shown(v: Any) -> bool:
    """Whether the page carries a field: not when it is None, "" or an empty list or mapping."""
    return v is not None and (bool(v) or not isinstance(v, (str, list, dict)))


def page_claim(c: dict[str, Any], docs: dict[str, int]) -> dict[str, Any]:
    """A claim as the page's script reads it: the fields it shows (ON_PAGE) that say something, its
    entities that are set, and `doc` as an index into `docs`, the page's list of articles (a path once per
    page, not once per claim), which it extends.  The display's verdict is left out where it says what the
    verdict says."""
    out: dict[str, Any] = {}
    for k in ON_PAGE:
        v = c.get(k)
        if shown(v):
            out[k] = v
    entities = out.get("entities")
    if isinstance(entities, dict):
        out["entities"] = {k: v for k, v in entities.items() if v}
    if "doc" in out:
        out["doc"] = docs.setdefault(str(out["doc"]), len(docs))
    display = c.get("display")
    if isinstance(display, dict):
        out["display"] = {k: v for k, v in display.items() if k in DISPLAY_ON_PAGE and v is not None and v != ""
                          and not (k == "verdict" and v == out.get("verdict"))}
    return out


# Text fields a page says once, however many claims carry them (a sentence holds several claims; readings,
# explanations and summaries repeat across the claims of a fact): each claim holds an index into the page's
# list of strings.  On a Chinese page they were half of its claims' data.
SHARED = ("sentence", "explanation", "summary")
SHARED_DISPLAY = ("frame", "readings", "compared_to")


def share_strings(claims: list[dict[str, Any]]) -> list[str]:
    """Replace the SHARED text fields of page claims (page_claim's, summaries added) and the ids of their
    evidence with indexes into the list returned, which holds each text once."""
    table: dict[str, int] = {}
    for c in claims:
        for k in SHARED:
            v = c.get(k)
            if isinstance(v, str):
                c[k] = table.setdefault(v, len(table))
        evidence = c.get("evidence")
        if isinstance(evidence, list):  # run ids and source URLs, cited by every claim of a result
            c["evidence"] = [table.setdefault(e, len(table)) if isinstance(e, str) else e for e in evidence]
        display = c.get("display")
        if isinstance(display, dict):
            for k in SHARED_DISPLAY:
                v = display.get(k)
                if isinstance(v, str):
                    display[k] = table.setdefault(v, len(table))
    return list(table)
