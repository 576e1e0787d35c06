"""The unit of work: one article in, its claims (or its error) out.  Every runner calls this."""

from __future__ import annotations

import hashlib
import re
import traceback
from dataclasses import asdict, dataclass, replace
from functools import cached_property, lru_cache
from pathlib import Path

from pipeline.errors import IngestError, NewsclaimsError
from pipeline.extract.claims import extract_claims
from pipeline.extract.dates import dated_line
from pipeline.ingest.read import read_article
from pipeline.lang.loader import Languages, languages
from pipeline.link import link_claims, load_kb
from pipeline.link.kb import KB_DIR, KnowledgeBase
from pipeline.official.query import DEFAULT_DIR, STATEMENT_FILES, TABLE_GLOB, OfficialResults
from pipeline.reconcile import reconcile_article
from pipeline.records import META_DATE_KEYS, Article, ArticleError, ArticleResult, Claim, shown_meta
from pipeline.run.versions import hash_tree, library_versions, pipeline_version
from pipeline.segment.sentences import Segmented, segment
from pipeline.settings import Settings

# a file name that opens with an ISO date (the shipped corpora's convention, and many archives')
_FILE_DATE = re.compile(r"(?:19|20)\d{2}-(?:0[1-9]|1[0-2])-(?:0[1-9]|[12]\d|3[01])(?!\d)")


def dated(meta: dict) -> dict[str, str] | None:
    """The date an article was read as of and its source: the sidecar's, else its page's markup or the date
    line of its first lines (as `analyse` found it); None when nothing dates it."""
    for key in META_DATE_KEYS:
        if meta.get(key):
            return {"date": str(meta[key]), "source": "sidecar", "line": ""}
    if meta.get("date_text"):
        line = str(meta.get("date_line") or "")
        source = ("page markup" if line.startswith("HTML metadata") else "file name" if line == "file name"
                  else "date line")
        return {"date": str(meta["date_text"]), "source": source, "line": line}
    return None


def run_fingerprint(settings: Settings) -> str:
    """What a stored per-article result depends on besides the article: the pipeline version, the
    libraries it runs on, the settings that change results, and the content of the official tables and
    statements (a part checked against another table must not be reused)."""
    h = hashlib.sha1(pipeline_version().encode())
    h.update(repr(sorted(library_versions().items())).encode())
    # settings that only change how the run is carried out or reported keep the parts valid
    kept = {k: v for k, v in asdict(settings).items() if k not in ("article_timeout", "report_page_articles")}
    h.update(repr(sorted(kept.items())).encode())
    if settings.lang_dir:  # a language data folder of one's own: its lexicons change results like ours do
        hash_tree(h, Path(settings.lang_dir).resolve(), {".yaml", ".txt", ".jsonl"})
    official = get_pipeline(settings).official
    h.update(repr(official.results).encode())
    h.update(repr(official.statements).encode())
    return f"{pipeline_version()}/{h.hexdigest()[:12]}"


@dataclass
class Pipeline:
    """Stages over one article.  Build once per process (it holds loaded data), call many times."""

    settings: Settings

    @cached_property
    def langs(self) -> Languages:
        """The languages of settings.lang_dir (default: the shipped ones), handed to every stage."""
        return languages(self.settings.lang_dir)

    @cached_property
    def kb(self) -> KnowledgeBase:
        """The knowledge base: settings.lang_dir's kb/ where it has one, else the shipped one."""
        own = Path(self.settings.lang_dir) / "kb" if self.settings.lang_dir else None
        return load_kb(own if own is not None and own.is_dir() else KB_DIR)

    @cached_property
    def official(self) -> OfficialResults:
        """The official tables (shipped, or --official): a broken table stops the run here, before any
        verdict could rest on it."""
        return OfficialResults.shared(self.settings.official).with_families(self.kb.generations())

    def analyse(self, article: Article) -> tuple[Segmented, list[Claim]]:
        """Segment, extract and link one article."""
        seg = segment(article, segmenter=self.settings.segmenter,
                      traditional_threshold=self.settings.traditional_threshold, langs=self.langs)
        named = _FILE_DATE.match(article.doc.rsplit("/", 1)[-1])
        if named and not any(article.meta.get(k) for k in (*META_DATE_KEYS, "date_text")):
            # a file named by its date ("2025-06-05_slug.md") is dated by it, before any date its text gives
            # (a forum post's "1. v0.7（2020 年 7 月 29 日发布）" is a round's date, not the post's)
            article = replace(article, meta={**article.meta, "date_text": named.group(0), "date_line": "file name"})
            seg = replace(seg, article=article)
        if not any(article.meta.get(k) for k in (*META_DATE_KEYS, "date_text")):
            # most real pages carry their date in their first lines: it dates "去年12月" and the round
            found = dated_line(seg.sentences, seg.analysis, {lang.code: lang for lang in self.langs})
            if found:
                article = replace(article, meta={**article.meta, "date_text": found[0], "date_line": found[1]})
                seg = replace(seg, article=article)
        problems: list[dict] = []
        claims = extract_claims(seg, self.settings, problems)
        if problems:
            article = replace(seg.article, meta={**seg.article.meta, "problems": problems})
            seg = replace(seg, article=article)
        claims = link_claims(list(seg.sentences), claims, article.meta, self.kb)
        return seg, claims

    def process(self, article: Article) -> ArticleResult:
        """The article's claims, linked and checked against the official results."""
        seg, claims = self.analyse(article)
        claims = reconcile_article(seg, claims, self.official, self.kb, self.settings)
        langs = [s.lang for s in seg.sentences]
        lang = max(dict.fromkeys(langs), key=langs.count) if langs else None  # a tie: the first
        return ArticleResult(doc=article.doc, sha256=article.sha256, claims=tuple(claims), lang=lang,
                             dated=dated(seg.article.meta), problems=tuple(seg.article.meta.get("problems") or ()),
                             text=article.text, shown=shown_meta(article.meta))


def get_pipeline(settings: Settings) -> Pipeline:
    """The Pipeline for these settings, built once per process, and again when an official table file
    changed since (a long-lived process must not check against figures that were since corrected)."""
    return _pipeline(settings, _official_signature(settings))


@lru_cache(maxsize=4)
def _pipeline(settings: Settings, signature: tuple) -> Pipeline:
    from pipeline import re_programs

    re_programs.preload()  # before the stages' patterns are compiled (a warm-up stored them)
    return Pipeline(settings)


def _official_signature(settings: Settings) -> tuple:
    """(file, mtime, size) of the official tables and statements these settings read."""
    path = Path(settings.official) if settings.official else DEFAULT_DIR
    folder = path if path.is_dir() else path.parent
    files = sorted(path.glob(TABLE_GLOB)) if path.is_dir() else [path]
    out = []
    for f in [*files, *(folder / name for name in STATEMENT_FILES)]:
        try:
            st = f.stat()
        except OSError:
            continue
        out.append((str(f), st.st_mtime_ns, st.st_size))
    return tuple(out)


def process_path(path: Path, root: Path, settings: Settings, pipe: Pipeline | None = None) -> ArticleResult:
    """Read and process one file; never raises for a bad article (the error is in the result).  `pipe`
    (default: get_pipeline(settings)) is the one a batch's worker pinned for the run."""
    from pipeline.ingest.read import doc_id

    doc = doc_id(path, root)
    try:
        article = read_article(path, root, max_bytes=settings.max_bytes)
    except IngestError as exc:
        return ArticleResult(doc=doc, sha256="", error=ArticleError(doc, exc.reason, exc.detail))
    try:
        return (pipe or get_pipeline(settings)).process(article)
    except NewsclaimsError as exc:
        return ArticleResult(doc=doc, sha256=article.sha256, error=ArticleError(doc, "pipeline", exc.message))
    except Exception as exc:  # noqa: BLE001 - one bad article must not stop a batch
        last = traceback.extract_tb(exc.__traceback__)[-1]
        detail = (f"internal error {type(exc).__name__}: {exc} (at {Path(last.filename).name}:{last.lineno}); "
                  "please report it with the article")
        return ArticleResult(doc=doc, sha256=article.sha256, error=ArticleError(doc, "internal", detail))


def failure_result(doc: str, failure: str, detail: str, path: Path) -> ArticleResult:
    """The result of an article whose process was stopped ("timeout", after `detail` seconds) or died
    ("crashed", `detail` says how), with what to do about it."""
    try:
        size = f"{path.stat().st_size} bytes"
    except OSError:
        size = "size unknown"
    if failure == "timeout":
        text = (f"stopped after {detail} s (setting article_timeout), {size}; the article is too long or "
                "hits a slow path: split it, or raise article_timeout in [tool.newsclaims]")
    else:
        text = f"{detail} while processing it ({size}); other articles were not affected: please report it"
    return ArticleResult(doc=doc, sha256="", error=ArticleError(doc, failure, text))


def check_text(text: str, date: str | None = None, doc: str = "<text>", settings: Settings | None = None
               ) -> list[Claim]:
    """Claims of a piece of text, linked and checked against the official results as a run checks an
    article (`date`, ISO, stands for a sidecar's: it dates "this May" and picks the round); used by
    `newsclaims extract`."""
    meta = {"date": date} if date else {}
    return list(get_pipeline(settings or Settings()).process(Article(doc=doc, text=text, meta=meta)).claims)


def extract_text(text: str, doc: str = "<text>", settings: Settings | None = None) -> list[Claim]:
    """Claims of a piece of text (any language mix): the quickest way in, used by `newsclaims extract`."""
    pipe = get_pipeline(settings or Settings())
    _, claims = pipe.analyse(Article(doc=doc, text=text))
    return claims
