"""The report page's article blocks (pipeline/report/blocks.py): the article text with its claims marked, and
the claims table, every article string escaped."""

from __future__ import annotations

import pytest

from pipeline.report.blocks import article_block, article_blocks, page_claim, share_strings, verdict_badge
from pipeline.report.load import ArticleView, Segment, highlight

TEXT = "Google trained BERT in 23 seconds on <b>4,096</b> chips & won."
CLAIMS = [
    {"id": "c1", "text": "23 seconds", "kind": "time", "verdict": "supported", "lang": "en",
     "display": {"value": "23 s", "interval": "[22.5 s, 23.5 s]", "official": "23.57 s", "distortion": ""}},
    {"id": "c2", "text": "<b>4,096</b> chips", "kind": "count", "verdict": "contradicted", "lang": "en",
     "display": {"value": "4,096", "interval": "", "official": "<4,096>", "distortion": "inflated"}},
]


def _view(**kw) -> ArticleView:
    spans = [(TEXT.index(c["text"]), TEXT.index(c["text"]) + len(c["text"]), c["id"]) for c in CLAIMS]
    blocks = [highlight(TEXT, spans, {c["id"]: c["verdict"] for c in CLAIMS})]
    return ArticleView(**{"doc": "en/a<1>.txt", "claims": CLAIMS, "blocks": blocks, "full_text": True,
                          "title": "Google & BERT", "meta": {"date": "2020-07-29"}, **kw})


@pytest.mark.parametrize(
    "fragment",
    [
        '<article class="doc" data-doc="en/a&lt;1&gt;.txt" data-langs="en" id="doc-3">',
        "<h2>Google &amp; BERT</h2>",
        " · 2020-07-29",
        "· 2 claims · ",
        '<mark class="claim v-supported" data-claim="c1" data-verdict="supported" id="c-c1" tabindex="0" '
        'role="button">23 seconds</mark>',
        '<mark class="claim v-contradicted" data-claim="c2" data-verdict="contradicted" id="c-c2" tabindex="0" '
        'role="button">&lt;b&gt;4,096&lt;/b&gt; chips</mark>',
        " &amp; won.</div>",
        '<tr class="claim-row" data-claim="c2" data-verdict="contradicted"><td class="num">2</td>',
        "<td>&lt;4,096&gt;</td>",
        '<details class="claim-table"><summary>claims table (2)</summary>',
    ],
)
def test_block_holds(fragment: str):
    assert fragment in article_block(_view(), 3)


@pytest.mark.parametrize("absent", ["<b>", "</b>", "& won", "<4,096>", "a<1>"])
def test_block_prints_no_article_string_raw(absent: str):
    assert absent not in article_block(_view(), 1)


def test_a_claim_cut_in_two_is_anchored_on_its_first_piece():
    blocks = [[Segment("23 ", "c1", "supported", True), Segment("seconds", "c1", "supported", False)]]
    html = article_block(_view(blocks=blocks), 1)
    assert html.count('id="c-c1"') == 1 and html.count('data-claim="c1"') == 3  # two marks and the table row


def test_sentence_fallback_has_one_paragraph_per_block():
    blocks = [[Segment("One 23 s.", None)], [Segment("Two.", None)]]
    html = article_block(_view(blocks=blocks, full_text=False, note="The article has changed since the run."), 1)
    assert html.count('<p class="text sentence-block">') == 2 and "<summary>sentences</summary>" in html
    assert '<p class="note">The article has changed since the run.</p>' in html


def test_an_article_without_claims_has_no_table():
    html = article_block(_view(claims=[], blocks=[[Segment(TEXT, None)]]), 1)
    assert "claim-table" not in html and "<details ><summary>" in html and "· 0 claims</p>" in html


def test_blocks_number_the_articles_in_order():
    html = article_blocks([_view(), _view(doc="b.txt")])
    assert html.index('id="doc-1"') < html.index('id="doc-2"') and 'data-doc="b.txt"' in html


@pytest.mark.parametrize(("verdict", "html"), [
    ("contradicted", '<span class="badge v-contradicted">contradicted</span>'),
    ("out_of_scope", '<span class="badge v-out_of_scope">out of scope</span>'),
    ("<x>", '<span class="badge v-&lt;x&gt;">&lt;x&gt;</span>'),
])
def test_badge(verdict: str, html: str):
    assert verdict_badge(verdict) == html


@pytest.mark.parametrize("text", [
    "TPU v4 是 TPU v3 的 2.7 倍",
    'Nvidia said "4x" & more <b>bold</b>',
    "it's 23 s",
    "&amp; already an entity",
    "",
])
def test_text_is_escaped_as_markupsafe_escapes_it(text):
    from markupsafe import escape

    from pipeline.report.blocks import text_html

    assert text_html(text) == str(escape(text))


# A claim on the page carries only the fields the script reads, and of those only the ones that say
# something: None, "" and an empty list or mapping are left out; a zero, a false flag or an empty tuple
# is a value.
@pytest.mark.parametrize("value, shown", [
    (None, False), ("", False), ([], False), ({}, False),
    (0, True), (0.0, True), (False, True), ((), True), ("x", True), ([0], True), ({"a": None}, True),
])
def test_a_page_claim_keeps_a_field_unless_it_is_empty(value, shown: bool):
    claim = {"id": "c1", "official": value, "doc": "a.txt"}
    page = page_claim(claim, {})
    assert ("official" in page) is shown
    assert page["doc"] == 0 and "value" not in page  # an index into the page's articles; not a field it reads


def test_a_page_says_each_text_once():
    sentence = "谷歌的新超级计算机比TPU v3 Pod大三倍，训练BERT只需23秒。"
    why = "Read strictly, 大三倍 is 4x; read loosely, 3x."
    claims = [{"id": "c1", "sentence": sentence, "explanation": why,
               "display": {"frame": "system size", "value": "3×"}},
              {"id": "c2", "sentence": sentence, "explanation": "It matches.", "display": {"frame": "system size"}},
              {"id": "c3", "sentence": "It used 4,096 chips.", "explanation": why, "summary": "相符。"}]
    strings = share_strings(claims)
    assert strings == [sentence, why, "system size", "It matches.", "It used 4,096 chips.", "相符。"]
    assert [(c["sentence"], c["explanation"]) for c in claims] == [(0, 1), (0, 3), (4, 1)]
    assert claims[0]["display"] == {"frame": 2, "value": "3×"} and claims[2]["summary"] == 5


@pytest.mark.parametrize(("display_verdict", "kept"), [
    ("contradicted", False), ("contradicted (4 of 5 readings)", True),
])
def test_a_page_claim_leaves_out_a_display_verdict_that_says_the_verdict(display_verdict: str, kept: bool):
    claim = {"id": "c1", "verdict": "contradicted", "display": {"verdict": display_verdict, "value": "4×"}}
    shown = page_claim(claim, {})["display"]
    assert ("verdict" in shown) is kept and shown["value"] == "4×"


# The template loops these functions replace (report.html.j2 before), rendered by the report's own Jinja
# environment: the functions print the same bytes.
_CONFLICTS_LOOP = """  {% for k in conflicts %}
  {% if k.get('elsewhere') %}
  <article class="conflict elsewhere{% if k.get('cross_article') %} cross{% endif %}">
    <h3>{{ k.get('fact', '') }}</h3>
    <p class="muted">{{ k.claims | length }} wordings, one of them in this part: listed in full <a href="{{ k.elsewhere }}#k-{{ k.key }}">with its first article</a>.</p>
  </article>
  {% else %}
  <article class="conflict{% if k.get('cross_article') %} cross{% endif %}" id="k-{{ k.key }}">
    <h3>{{ k.get('fact', '') }}</h3>
    <p class="resolution">{% if k.get('official') is not none %}<b>Official:</b> {{ k.official_display }}{% if k.get('source_text') %}, from {{ k.source_text }}{% endif %}. {% endif %}{{ k.get('resolution', '') }}</p>
    <div class="side-by-side">
      {% for c in k.claims %}
      <div class="card v-{{ c.verdict }}">
        <div class="card-head">{{ badge(c.verdict) }} <span class="doc">{{ c.doc }}</span></div>
        <p class="quote">{{ claim_link(c) }}{% if c.get('display') %} <span class="muted">= {{ c.display.value }}{% if c.display.reading %}, {{ c.display.reading }}{% endif %}</span>{% endif %}</p>
        {% if c.get('sentence') %}<p class="sentence">{{ c.sentence }}</p>{% endif %}
        {% if c.get('summary') %}<p class="summary-line" lang="{{ c.lang }}">{{ c.summary }}</p>{% endif %}
        <p class="explanation">{{ c.get('explanation', '') }}</p>
      </div>
      {% endfor %}
    </div>
  </article>
  {% endif %}
  {% else %}
  <p>No conflicts: no two claims state different values for the same fact.</p>
  {% endfor %}
"""  # noqa: E501 - the template's own lines
_DISCREPANCIES_LOOP = """    {% for c in discrepancies %}
      <tr class="disc-row" data-verdict="{{ c.verdict }}"><td class="doc">{{ c.doc }}</td><td>{{ claim_link(c) }}</td>
        <td>{{ c.display.value }}</td><td>{{ c.display.official }}</td><td>{{ badge(c.verdict) }}</td>
        <td>{{ c.display.distortion }}</td><td class="explanation">{{ c.explanation }}</td></tr>
    {% endfor %}
    """

_WORDINGS = [
    {**CLAIMS[0], "doc": "en/a.txt", "sentence": "Google trained <BERT> in 23 seconds.", "explanation": "Agrees."},
    {**CLAIMS[1], "doc": "zh/b & c.txt", "lang": "zh", "summary": "芯片数“4096”与官方不符", "explanation": None,
     "display": {"value": "4,096", "reading": "at least"}},
    {"id": "c3", "text": "23 秒", "doc": "zh/d.txt", "verdict": None, "display": None, "sentence": ""},
    {"id": "c4", "text": "'quoted'", "doc": "zh/e.txt"},  # no verdict, no display, no explanation
]
_CONFLICT_CASES = {
    "none": [],
    "in full": [{"key": "k1", "fact": "BERT's time <v0.7>", "official": 23.57, "official_display": "23.57 s",
                 "source_text": "the result log", "resolution": "Two wordings differ.", "cross_article": True,
                 "claims": _WORDINGS}],
    "no official": [{"key": "k2", "fact": None, "official": None, "claims": _WORDINGS[2:]}],
    "official without source": [{"key": "k3", "official": 0, "official_display": "0", "claims": []}],
    "listed elsewhere": [{"key": "k4", "fact": "chips", "elsewhere": "part-0002.html", "claims": _WORDINGS[:3]},
                         {"key": "k5", "fact": "chips", "cross_article": False, "claims": _WORDINGS[1:2]}],
}
_PAGES = [(None, None), ({"en/a.txt": "part-0001.html", "zh/b & c.txt": "part-0002.html"}, "part-0001.html")]


@pytest.mark.parametrize("case", list(_CONFLICT_CASES))
@pytest.mark.parametrize(("doc_pages", "this_page"), _PAGES)
def test_conflict_cards_print_what_the_template_loop_printed(case: str, doc_pages, this_page):
    from pipeline.report.blocks import conflict_cards
    from pipeline.report.html import template_env

    conflicts = _CONFLICT_CASES[case]
    expected = template_env().from_string(_CONFLICTS_LOOP).render(conflicts=conflicts, doc_pages=doc_pages,
                                                                  this_page=this_page)
    assert "  " + conflict_cards(conflicts, doc_pages, this_page) + "\n" == expected


@pytest.mark.parametrize(("doc_pages", "this_page"), _PAGES)
def test_discrepancy_rows_print_what_the_template_loop_printed(doc_pages, this_page):
    from pipeline.report.blocks import discrepancy_rows
    from pipeline.report.html import template_env

    rows = [*_WORDINGS, {**CLAIMS[1], "display": {"official": None}}]
    expected = template_env().from_string(_DISCREPANCIES_LOOP).render(discrepancies=rows, doc_pages=doc_pages,
                                                                      this_page=this_page)
    assert "    " + discrepancy_rows(rows, doc_pages, this_page) + "\n    " == expected
