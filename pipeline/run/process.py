"""The unit of work: one article in, its claims (or its error) out.  Every runner calls this."""

from __future__ import annotations

import hashlib
import traceback
from dataclasses import dataclass
from functools import cached_property, lru_cache
from pathlib import Path

from pipeline.errors import IngestError, NewsclaimsError
from pipeline.extract.claims import extract_claims
from pipeline.ingest.read import read_article
from pipeline.lang.loader import LANG_DIR
from pipeline.link import link_claims, load_kb
from pipeline.official.query import OfficialResults
from pipeline.reconcile import reconcile_article
from pipeline.records import Article, ArticleError, ArticleResult, Claim
from pipeline.segment.sentences import Segmented, segment
from pipeline.settings import Settings

__version__ = "0.1.0"


@lru_cache(maxsize=1)
def pipeline_version() -> str:
    """Code version plus a hash of the language data: a lexicon change makes earlier outputs stale."""
    h = hashlib.sha1(__version__.encode())
    for path in sorted(LANG_DIR.rglob("*")):
        if path.is_file() and path.suffix in {".yaml", ".txt", ".jsonl"}:
            h.update(path.relative_to(LANG_DIR).as_posix().encode())
            h.update(path.read_bytes())
    return f"{__version__}+{h.hexdigest()[:10]}"


@dataclass
class Pipeline:
    """Stages over one article.  Build once per process (it holds loaded data), call many times."""

    settings: Settings

    @cached_property
    def official(self) -> OfficialResults:
        """The official tables (shipped, or --official): a broken table stops the run here, before any
        verdict could rest on it."""
        return OfficialResults(self.settings.official)

    def analyse(self, article: Article) -> tuple[Segmented, list[Claim]]:
        """Segment, extract and link one article."""
        seg = segment(article)
        claims = extract_claims(seg, self.settings)
        claims = link_claims(list(seg.sentences), claims, article.meta, load_kb())
        return seg, claims

    def process(self, article: Article) -> ArticleResult:
        seg, claims = self.analyse(article)
        claims = reconcile_article(seg, claims, self.official, load_kb(), self.settings)
        langs = [s.lang for s in seg.sentences]
        lang = max(set(langs), key=langs.count) if langs else None
        return ArticleResult(doc=article.doc, sha256=article.sha256, claims=tuple(claims), lang=lang)


@lru_cache(maxsize=4)
def get_pipeline(settings: Settings) -> Pipeline:
    return Pipeline(settings)


def process_path(path: Path, root: Path, settings: Settings) -> ArticleResult:
    """Read and process one file; never raises for a bad article (the error is in the result)."""
    from pipeline.ingest.read import doc_id

    doc = doc_id(path, root)
    try:
        article = read_article(path, root, max_bytes=settings.max_bytes)
    except IngestError as exc:
        return ArticleResult(doc=doc, sha256="", error=ArticleError(doc, exc.reason, exc.detail))
    try:
        return get_pipeline(settings).process(article)
    except NewsclaimsError as exc:
        return ArticleResult(doc=doc, sha256=article.sha256, error=ArticleError(doc, "pipeline", exc.message))
    except Exception as exc:  # noqa: BLE001 - one bad article must not stop a batch
        last = traceback.extract_tb(exc.__traceback__)[-1]
        detail = (f"internal error {type(exc).__name__}: {exc} (at {Path(last.filename).name}:{last.lineno}); "
                  "please report it with the article")
        return ArticleResult(doc=doc, sha256=article.sha256, error=ArticleError(doc, "internal", detail))


def extract_text(text: str, doc: str = "<text>", settings: Settings | None = None) -> list[Claim]:
    """Claims of a piece of text (any language mix): the quickest way in, used by `newsclaims extract`."""
    pipe = get_pipeline(settings or Settings())
    _, claims = pipe.analyse(Article(doc=doc, text=text))
    return claims
