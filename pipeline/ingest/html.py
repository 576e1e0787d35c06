"""HTML -> the article's main text.  Nothing in a page is ever executed or fetched: pages are parsed as
data, and script, style, template and embedded-document content never reaches the text.

trafilatura finds the main text (navigation, footers and ads removed); when it finds none (short pages),
or fails on hostile markup (deep nesting, broken tags), a plain parser keeps the visible text.
"""

from __future__ import annotations

from html.parser import HTMLParser

# Elements whose content a reader never sees as article text: code, styling, inert templates, embedded
# documents and vector graphics (an <svg> may hold a <script>).  All have end tags, so counting them open
# and closed is sound (a void element such as <embed> has no content to hide).
HIDDEN = frozenset({"script", "style", "noscript", "template", "head", "iframe", "object", "svg", "math",
                    "canvas", "frameset", "applet", "title"})
BLOCKS = frozenset({"p", "div", "br", "li", "h1", "h2", "h3", "h4", "h5", "h6", "tr", "section", "article",
                    "blockquote", "pre", "table", "ul", "ol", "dd", "dt", "header", "footer", "main", "aside"})
# Past this nesting depth an element's start is not a new block: 100 000 nested <div>s are one paragraph,
# not 100 000 empty lines (and no parser recursion).
MAX_DEPTH = 256


def html_to_text(html: str) -> str:
    """Main text of a page, boilerplate removed; falls back to all visible text."""
    text = None
    cleaned = _without_hidden(html)
    if cleaned is not None:
        try:
            import trafilatura

            from pipeline.ingest.stoplist import prepare

            prepare()  # justext's stop words from the cache file, not rebuilt by every process
            # recall over precision: a list of results ("<ul><li>BERT took 7.2 seconds ...") is article text,
            # which the precise setting drops as boilerplate; the ad and section filters come later
            text = trafilatura.extract(cleaned, include_comments=False, include_tables=True,
                                       favor_recall=True, deduplicate=False)
        except Exception:  # noqa: BLE001 - a parser crash on hostile HTML must not lose the article
            text = None
    if text and text.strip():
        return text
    return visible_text(html)


def published_date(html: str) -> str | None:
    """The date a page says it was published, from its own markup only (article:published_time, JSON-LD
    datePublished, <time>, a dated canonical URL), as ISO text; never guessed from the body's text."""
    try:
        from htmldate import find_date

        found = find_date(html, extensive_search=False, original_date=True, outputformat="%Y-%m-%d")
    except Exception:  # noqa: BLE001 - hostile markup must not lose the article, only its date
        return None
    return found or None


def _without_hidden(html: str):  # -> lxml HtmlElement | None
    """The page as an lxml tree with hidden elements removed (trafilatura keeps <template> text, and
    should never see script bodies), or None when lxml cannot parse it (then the plain parser runs)."""
    try:
        import lxml.html

        tree = lxml.html.document_fromstring(html)
        for el in list(tree.iter(*(HIDDEN - {"head", "title"}), "embed")):
            if el.getparent() is not None:
                el.drop_tree()
        return tree
    except Exception:  # noqa: BLE001 - lxml refuses some hostile markup; the plain parser copes
        return None


class _Visible(HTMLParser):
    """Visible text, one line per block; iterative (no recursion), so nesting depth cannot crash it."""

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.parts: list[str] = []
        self.open: dict[str, int] = {}  # hidden elements open, by tag: only </x> closes an <x>
        self.depth = 0

    @property
    def hidden(self) -> bool:
        """Whether the parser is inside an element whose text no reader sees."""
        return any(self.open.values())

    def handle_starttag(self, tag: str, attrs: list) -> None:
        """Enter an element: note whether it hides its text and where blocks break."""
        # Attributes (onclick, onerror, href="javascript:...") are never text and never looked at.
        if tag == "body":
            self.open.pop("head", None)  # an unclosed <head> ends where the body starts
        if tag in HIDDEN:
            self.open[tag] = self.open.get(tag, 0) + 1
        elif tag in BLOCKS:
            self.depth += 1
            if self.depth <= MAX_DEPTH:
                self.parts.append("\n")

    def handle_startendtag(self, tag: str, attrs: list) -> None:
        """A self-closing element: a line break where it breaks a line."""
        if tag in BLOCKS:
            self.parts.append("\n")

    def handle_endtag(self, tag: str) -> None:
        """Leave an element."""
        if tag in HIDDEN:
            self.open[tag] = max(0, self.open.get(tag, 0) - 1)
        elif tag in BLOCKS:
            self.depth = max(0, self.depth - 1)
            if self.depth < MAX_DEPTH:
                self.parts.append("\n")

    def handle_data(self, data: str) -> None:
        """Keep text outside hidden elements."""
        if not self.hidden:
            self.parts.append(data)


def visible_text(html: str) -> str:
    """The text a reader of the page sees, without scripts, styles, templates or hidden elements."""
    parser = _Visible()
    try:
        parser.feed(html)
        parser.close()
    except Exception:  # noqa: BLE001 - keep what was read before the parser gave up
        pass
    lines = [" ".join(line.split()) for line in "".join(parser.parts).splitlines()]
    return "\n".join(line for line in lines if line)
