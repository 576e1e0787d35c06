"""Error types with codes, in one place (spaCy-style), so messages stay consistent and testable."""

from __future__ import annotations


class NewsclaimsError(Exception):
    """Base class: every error newsclaims raises on purpose."""

    code = "E000"

    def __init__(self, message: str) -> None:
        super().__init__(f"[{self.code}] {message}")
        self.message = message


class DataFileError(NewsclaimsError):
    """A language, knowledge-base or official data file is broken (names the file and the key)."""

    code = "E001"

    def __init__(self, path: object, problem: str, key: str | None = None) -> None:
        where = f"{path}" + (f", key {key!r}" if key else "")
        super().__init__(f"{where}: {problem}")
        self.path = str(path)
        self.key = key


class IngestError(NewsclaimsError):
    """An article cannot be read; `reason` is a short code used in errors.jsonl."""

    code = "E100"

    def __init__(self, doc: str, reason: str, detail: str) -> None:
        super().__init__(f"{doc}: {detail}")
        self.doc = doc
        self.reason = reason
        self.detail = detail


class OfficialTableError(NewsclaimsError):
    """An official table or statements file is malformed: reconciling against it would mislead."""

    code = "E200"


class ConfigError(NewsclaimsError):
    code = "E300"


class OutputDirError(NewsclaimsError):
    """OUT_DIR cannot be written safely: it holds files newsclaims did not write (annotations, articles),
    or another run is writing to it."""

    code = "E400"
