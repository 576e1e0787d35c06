"""Error types with codes, in one place (spaCy-style), so messages stay consistent and testable.

Each error carries the exit code the command line ends with (the README's table):

    0  the batch ran (articles that could not be read are listed in errors.jsonl)
    1  no article at all could be read; an import that left annotations out
    2  a usage error: an option, setting, config file, input or output folder, official table
    3  an output cannot be written: OUT_DIR or annotations/ read-only, the disk full, permission denied
    4  a file given to a command is not what it should be (a truncated, binary or malformed review export,
       a damaged claims.jsonl or gold file)
    5  the worker processes could not start (memory, a broken environment): nothing was checked
    130  interrupted (Ctrl-C); a rerun resumes
"""

from __future__ import annotations

import errno


class NewsclaimsError(Exception):
    """Base class: every error newsclaims raises on purpose."""

    code = "E000"
    exit_code = 2

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


class InputError(NewsclaimsError):
    """INPUT_DIR cannot be read as a corpus: missing, or a file that is no article."""

    code = "E110"


class ConfigError(NewsclaimsError):
    """A setting of the wrong type or out of range, or a config file without a [tool.newsclaims] table."""

    code = "E300"


class OutputDirError(NewsclaimsError):
    """OUT_DIR cannot be written safely: it holds files newsclaims did not write (annotations, articles),
    or another run is writing to it."""

    code = "E400"


class ReviewError(NewsclaimsError):
    """A review file, run folder or annotations folder cannot be used as asked."""

    code = "E410"


class ReviewFileError(ReviewError):
    """A review export is not what it should be: truncated, binary, not JSON, or not a list of tasks."""

    code = "E411"
    exit_code = 4


class GoldPathError(ReviewError, ValueError):
    """A document path that would lead outside the gold folder (or is no path): never written."""

    code = "E412"


class CorruptFileError(NewsclaimsError, ValueError):
    """A JSON-lines file newsclaims reads (claims.jsonl, conflicts.jsonl, a gold file) is damaged: names the
    file and line."""

    code = "E430"
    exit_code = 4


class WorkerStartError(NewsclaimsError, RuntimeError):
    """The processes that check articles could not start: out of memory, or a broken installation."""

    code = "E600"
    exit_code = 5


class ReportError(NewsclaimsError):
    """The report cannot be built: the folder holds no run, or the articles' folder is missing."""

    code = "E420"


class OutputWriteError(NewsclaimsError):
    """An output cannot be written (read-only folder, full disk, no permission); what was there before is
    intact, since every file is written to a temporary name first."""

    code = "E500"
    exit_code = 3

    def __init__(self, where: object, exc: OSError) -> None:
        reason = exc.strerror or str(exc) or type(exc).__name__
        super().__init__(f"{where}: cannot write ({reason}); the earlier outputs there are intact. Free some "
                         "space or choose a folder you can write to, then run again: it resumes")
        self.errno = exc.errno


# what an OSError while writing an output means the output's place cannot take it (not a bug of ours)
WRITE_ERRNOS = frozenset({errno.EACCES, errno.EPERM, errno.ENOSPC, errno.EROFS, errno.EDQUOT, errno.EFBIG,
                          errno.EIO})
