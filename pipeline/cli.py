"""The `newsclaims` command line: thin wrappers over the library's functions."""

from __future__ import annotations

import atexit
import contextlib
import json
import os
import sys
import tomllib
from pathlib import Path
from typing import Annotated, Any, NoReturn

from pipeline import re_programs

# The patterns a warm-up stored, before the command line's libraries load: typer, click, rich and the
# standard modules they import compile some 80 patterns of their own at import (25-30 ms of every command)
re_programs.preload()

import typer  # noqa: E402
from rich.console import Console  # noqa: E402
from rich.markup import escape  # noqa: E402
from rich.table import Table  # noqa: E402

from pipeline.errors import WRITE_ERRNOS, ConfigError, NewsclaimsError  # noqa: E402
from pipeline.procs import auto_workers, loading  # noqa: E402
from pipeline.settings import Engine, Settings  # noqa: E402


def _plain_help() -> None:
    """Help that reads as a person writes it: `run [OPTIONS] INPUT_DIR`, a flag without a `<bool>` type and an
    argument without a `<path>` one (its name says what it is).  Typer 0.2x draws `{INPUT_DIR}` and those
    types; its display hooks are replaced here, where they exist (tests/test_cli_help.py reads the result)."""
    from typer import core

    def usage_name(self: core.TyperArgument) -> str:
        name = self.display_name_raw if self.required else f"[{self.display_name_raw}]"
        return name + ("..." if self.nargs != 1 and not name.endswith("...") else "")

    def option_type(self: core.TyperOption, ctx: Any) -> str | None:
        if self.is_flag:
            return None
        return self.metavar if self.metavar is not None else core._TyperParameter.display_type_rich(self, ctx)

    if hasattr(core.TyperArgument, "_usage_display_name"):
        # setattr: replacing methods on purpose (a type checker would refuse the assignment)
        setattr(core.TyperArgument, "_usage_display_name", usage_name)  # noqa: B010
        setattr(core.TyperArgument, "display_type_rich", lambda self, ctx: None)  # noqa: B010
        setattr(core.TyperOption, "display_type_rich", option_type)  # noqa: B010


_plain_help()
app = typer.Typer(help="Fact-check the numbers in tech news against official MLPerf results.",
                  no_args_is_help=True, add_completion=False)
official_app = typer.Typer(help="Build and inspect the official MLPerf tables.", no_args_is_help=True)
app.add_typer(official_app, name="official")
export_app = typer.Typer(help="Export a run's checked claims for other tools.", no_args_is_help=True)
app.add_typer(export_app, name="export")
annotate_app = typer.Typer(help="Exchange claims with annotation tools (Label Studio, Prodigy, doccano).",
                           no_args_is_help=True)
app.add_typer(annotate_app, name="annotate")
console = Console(stderr=True, soft_wrap=True)
out_console = Console()

ConfigOpt = Annotated[Path | None, typer.Option("--config", metavar="FILE",
                                               help="TOML file with a \\[tool.newsclaims] table.")]


def _say(kind: str, message: str) -> None:
    """One line on stderr; the message is text, never markup (a path or a [tool.newsclaims] stays whole)."""
    style = {"error": "red", "warning": "yellow"}[kind]
    console.print(f"[{style}]{kind}:[/{style}] {escape(message)}", highlight=False)


def _fail(message: str, exit_code: int = 2) -> NoReturn:
    _say("error", message)
    raise typer.Exit(exit_code)


def _settings(config: Path | None) -> Settings:
    """--config's [tool.newsclaims] table (required there), else the one of ./pyproject.toml if it has
    one, else the defaults.  A setting of the wrong type or range is an error either way."""
    if config is not None:
        return Settings.from_toml(config)
    here = Path("pyproject.toml")
    if not here.exists():
        return Settings()
    try:
        return Settings.from_toml(here, required=False)
    except ConfigError as exc:
        if isinstance(exc.__cause__, (OSError, UnicodeDecodeError, tomllib.TOMLDecodeError)):
            # another project's broken file is no reason to stop; say it was not read
            _say("warning", f"{here}: not read ({exc.__cause__}); using the default settings")
            return Settings()
        raise


@app.command()
def run(
    input_dir: Annotated[Path, typer.Argument(
        metavar="INPUT_DIR", help="Folder of articles (.txt, .md, .html), searched recursively.")],
    out: Annotated[Path, typer.Option(
        "--out", metavar="DIR", help="Output folder (claims.jsonl, claims.csv, errors.jsonl).")],
    official: Annotated[Path | None, typer.Option(
        metavar="FILE", help="Official table (CSV) to reconcile against.")] = None,
    engine: Annotated[Engine, typer.Option(metavar="local|dask",
                                           help="Where the articles run: local processes or a dask cluster.")
                      ] = Engine.LOCAL,
    scheduler: Annotated[str | None, typer.Option(
        metavar="ADDRESS", help="Dask scheduler address (default: a local cluster).")] = None,
    workers: Annotated[int, typer.Option(metavar="N", help="Worker processes (0, the default: one per CPU "
                                         "core, as many as the free memory holds).")] = 0,
    config: ConfigOpt = None,
    quiet: Annotated[bool, typer.Option("--quiet", "-q", help="No progress bar.")] = False,
    follow_symlinks: Annotated[bool, typer.Option(
        "--follow-symlinks", help="Read file links whose target lies outside INPUT_DIR (off: listed in "
        "errors.jsonl, not read).")] = False,
    as_json: Annotated[bool, typer.Option("--json", help="Print the summary as JSON, for scripts.")] = False,
) -> None:
    """Extract and check every numeric claim of the articles in INPUT_DIR."""
    with loading():  # imports: next to no garbage, and collections would walk every module loaded so far
        from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn

        from pipeline.ingest.read import ARTICLE_SUFFIXES
        from pipeline.run.batch import report_run, run_batch

    if not input_dir.exists():
        _fail(f"{input_dir}: no such file or folder", 2)
    settings = _settings(config)
    if official is not None:
        settings = settings.updated({"official": str(official)})
    if follow_symlinks:
        settings = settings.updated({"follow_symlinks": True})
    if workers < 0:
        _fail(f"--workers must be 0 (one per CPU core) or more, not {workers}", 2)
    workers = workers or auto_workers()
    if engine == Engine.DASK:
        try:
            import dask.distributed  # noqa: F401
        except ImportError:
            _fail("--engine dask needs dask.distributed: pip install 'newsclaims[dask]'", 2)
    try:
        with Progress(TextColumn("[bold]newsclaims"), BarColumn(), MofNCompleteColumn(), TimeElapsedColumn(),
                      TextColumn("{task.description}"), console=console, disable=quiet) as bar:
            task = bar.add_task("", total=None)

            def progress(done: int, total: int, doc: str) -> None:
                bar.update(task, completed=done, total=total, description=doc[-50:])

            summary = run_batch(input_dir, out, settings, workers=workers, progress=progress, engine=engine,
                                scheduler=scheduler)
            # the report of a large corpus takes minutes: its parts count on a bar of their own
            report_task = bar.add_task("report", total=None)

            def report_progress(done: int, total: int, what: str) -> None:
                bar.update(report_task, completed=done, total=total, description=what)

            report_run(out, input_dir, settings, summary, workers=workers, progress=report_progress)
    except KeyboardInterrupt:
        # what was finished is stored: say so, and end with the shell's code for an interrupt
        _fail(f"interrupted; the articles finished so far are kept in {out}, and a rerun resumes from them", 130)
    if as_json:
        print(json.dumps({"articles": summary.articles, "unchanged": summary.reused, "processed": summary.processed,
                          "claims": summary.claims, "errors": summary.errors, "timeouts": summary.timeouts,
                          "error_docs": summary.error_docs, "out": str(out)}, ensure_ascii=False, indent=1))
    console.print(f"{_n(summary.articles, 'article')} ({summary.reused} unchanged since the last run), "
                  f"{_n(summary.claims, 'claim')}, {_n(summary.errors, 'error')} -> {escape(str(out))}",
                  highlight=False)
    for doc in summary.error_docs[:10]:
        console.print(f"  [yellow]could not process[/yellow] {escape(doc)} (see errors.jsonl)", highlight=False)
    if summary.articles == 0:
        _fail(f"{input_dir}: no articles found (files ending {', '.join(ARTICLE_SUFFIXES)})", 1)
    if not summary.ok:
        _fail("no article could be read", 1)


def _n(count: int, noun: str) -> str:
    """'1 article', '2 articles': counts as a person writes them."""
    return f"{count:,} {noun}" + ("" if count == 1 else "s")


@app.command()
def report(
    run_dir: Annotated[Path, typer.Argument(metavar="RUN_DIR", help="Output folder of a run (with claims.jsonl).")],
    input_dir: Annotated[
        Path | None, typer.Option("--input", metavar="DIR", help="The articles' folder (default: from run.json).")
    ] = None,
    config: ConfigOpt = None,
    workers: Annotated[int, typer.Option(metavar="N", help="Processes rendering the report's parts (0, the "
                                         "default: one per CPU core, as many as the free memory holds).")] = 0,
    as_json: Annotated[bool, typer.Option("--json", help="List the files written as JSON, for scripts.")] = False,
) -> None:
    """Rebuild report.html, report.md, chart.svg and claims.parquet from claims.jsonl, without rerunning."""
    from pipeline.report.cli import report_command

    if workers < 0:
        _fail(f"--workers must be 0 (one per CPU core) or more, not {workers}", 2)
    written = report_command(run_dir, input_dir, per_page=_settings(config).report_page_articles,
                             workers=workers or auto_workers())
    if as_json:
        print(json.dumps({"written": [str(p) for p in written]}, ensure_ascii=False, indent=1))
        return
    top = [p.name for p in written if p.parent == run_dir]
    parts = [p for p in written if p.parent != run_dir and p.suffix == ".html"]
    said = ", ".join(top) + (f" and {_n(len(parts), 'report part')} (report-pages/)" if parts else "")
    out_console.print(f"Wrote {escape(said)} in {escape(str(run_dir))}", highlight=False)


@app.command()
def article(
    run_dir: Annotated[Path, typer.Argument(metavar="RUN_DIR", help="Output folder of a run.")],
    docs: Annotated[list[str], typer.Argument(
        metavar="DOC...", help="Articles as claims.jsonl names them (e.g. zh/a.txt).")],
    to: Annotated[Path | None, typer.Option(
        "--to", metavar="PATH",
        help="A .html or .pdf file (one article), or a folder (default: RUN_DIR/articles).")] = None,
    pdf: Annotated[bool, typer.Option("--pdf", help="PDF (printed by Chromium) instead of HTML.")] = False,
    input_dir: Annotated[Path | None, typer.Option(
        "--input", metavar="DIR", help="The articles' folder (default: from run.json).")] = None,
) -> None:
    """One article's fact-check on a page to send or print: its text with the claims marked, and beside each
    paragraph the verdicts, the official figures, the reasons and the evidence."""
    from pipeline.report.article import write_article

    if to is not None and to.suffix.lower() in (".html", ".htm", ".pdf") and len(docs) > 1:
        _fail(f"--to {to} is one file, and {len(docs)} articles were given; give a folder", 2)
    for doc in docs:
        if to is not None and to.suffix.lower() in (".html", ".htm", ".pdf"):
            target = to
        else:
            folder = to if to is not None else run_dir / "articles"
            target = folder / (doc.replace("/", "__") + (".pdf" if pdf else ".html"))
        out_console.print(f"Wrote {escape(str(write_article(run_dir, doc, target, input_dir)))}", highlight=False)


@annotate_app.command("export")
def annotate_export_cmd(
    run_dir: Annotated[Path, typer.Argument(metavar="RUN_DIR", help="Output folder of a run.")],
    to: Annotated[Path, typer.Option(
        "--to", metavar="PATH", help="Tasks file, or a folder for tasks and the labeling config.")],
    fmt: Annotated[str, typer.Option(
        "--format", metavar="FORMAT", help="label-studio, prodigy or doccano.")] = "label-studio",
    input_dir: Annotated[Path | None, typer.Option(
        "--input", metavar="DIR", help="The articles' folder (default: run.json).")] = None,
    as_json: Annotated[bool, typer.Option(
        "--json", help="Print the summary as JSON, for scripts.")] = False,
) -> None:
    """Claims and entities as pre-annotated tasks, with values, readings and verdicts as span attributes."""
    from pipeline.review import annotate_export

    summary = annotate_export(run_dir, fmt, to, input_dir)
    if as_json:
        print(json.dumps(_plain(summary), ensure_ascii=False, indent=1))
        return
    out_console.print(f"Exported {_n(summary.tasks, 'article')} ({_n(summary.claims, 'claim')}, "
                      f"{_n(summary.entities, 'entity name')}, {_n(summary.relations, 'link')} from claims to "
                      f"names) for {summary.format}:", highlight=False)
    for path in summary.files:
        out_console.print(f"  {escape(str(path))}", highlight=False)


@annotate_app.command("import")
def annotate_import_cmd(
    file: Annotated[Path, typer.Argument(
        metavar="FILE", help="A reviewed export (Label Studio JSON, Prodigy or doccano JSONL).")],
    to: Annotated[Path, typer.Option(
        "--to", metavar="PATH", help="The gold folder to merge into.")] = Path("annotations"),
    reviewer: Annotated[str | None, typer.Option(
        metavar="NAME", help="Reviewer name when the file gives none.")] = None,
    run_dir: Annotated[Path | None, typer.Option(
        "--run", metavar="DIR", help="The run the tasks were exported from (default: the one the export names); each "
        "reviewed text is checked against its article there.")] = None,
    input_dir: Annotated[Path | None, typer.Option(
        "--input", metavar="DIR", help="The articles' folder (default: run.json).")] = None,
    as_json: Annotated[bool, typer.Option(
        "--json", help="Print the summary as JSON, for scripts.")] = False,
) -> None:
    """Merge a review into annotations/: never overwrites another reviewer's decision (conflicts are kept).
    An annotation whose article is in no run, or whose text is not its article's, is not imported."""
    from pipeline.review import annotate_import

    summary = annotate_import(file, to, reviewer=reviewer, run_dir=run_dir, input_dir=input_dir)
    if as_json:
        print(json.dumps(_plain(summary), ensure_ascii=False, indent=1))
    else:
        acts = ", ".join(f"{n} {a}" for a, n in sorted(summary.actions.items())) or "no decisions"
        outs = ", ".join(f"{n} {o}" for o, n in sorted(summary.outcomes.items())) or "nothing changed"
        out_console.print(f"Imported {_n(summary.reviewed, 'reviewed article')} from {escape(str(file))} "
                          f"({summary.format}): {acts} -> {escape(str(to))}: {outs}", highlight=False)
        for c in summary.conflicts[:10]:
            out_console.print(f"  [yellow]conflict[/yellow] {escape(str(c.get('doc')))}: "
                              f"{escape(str(c.get('id')))} (kept both decisions)", highlight=False)
        for p in summary.problems[:20]:
            _say("warning", p)
        if len(summary.problems) > 20:
            _say("warning", f"... and {len(summary.problems) - 20} more (--json lists them all)")
    if summary.skipped:
        # a partial import is no success: the reviewer must fix the export (nothing of those was written)
        _fail(f"{_n(summary.skipped, 'annotation')} not imported (see the problems above)", 1)


def _plain(summary: object) -> dict:
    """A summary dataclass as JSON-able values (paths as strings)."""
    from dataclasses import asdict

    return json.loads(json.dumps(asdict(summary), default=str))  # type: ignore[call-overload]


@app.command()
def review(
    run_dir: Annotated[Path, typer.Argument(metavar="RUN_DIR", help="Output folder of a run.")],
    annotations: Annotated[Path, typer.Option(
        metavar="DIR", help="Gold folder the decisions go to.")] = Path("annotations"),
    host: Annotated[str, typer.Option(
        metavar="ADDRESS", help="Address to bind (local only by default).")] = "127.0.0.1",
    port: Annotated[int, typer.Option(metavar="N", help="Port.")] = 8765,
    reviewer: Annotated[str | None, typer.Option(
        metavar="NAME", help="Your name, recorded with each decision.")] = None,
) -> None:
    """A local page to accept, reject or correct claims one at a time (keys: a, r, c, j/k, u)."""
    from pipeline.review import review_serve

    review_serve(run_dir, annotations, host, port, reviewer)


@export_app.command("claimreview")
def export_claimreview_cmd(
    run_dir: Annotated[Path, typer.Argument(metavar="RUN_DIR", help="Output folder of a run.")],
    to: Annotated[
        Path | None, typer.Option("--to", metavar="PATH", help="Where to write (default RUN_DIR/claimreview.jsonld).")
    ] = None,
) -> None:
    """schema.org ClaimReview JSON-LD for the supported, contradicted and ambiguous claims."""
    from pipeline.reconcile.claimreview import export_claimreview

    if not (run_dir / "claims.jsonl").exists():
        _fail(f"{run_dir / 'claims.jsonl'}: not found; run `newsclaims run` first", 2)
    out_console.print(f"Wrote {export_claimreview(run_dir, to)}")


@app.command()
def extract(
    text: Annotated[str, typer.Argument(metavar="TEXT", help="Text to check; '-' reads standard input.")],
    as_json: Annotated[bool, typer.Option("--json", help="One JSON object per claim (the contract's fields).")] = False,
    date: Annotated[str | None, typer.Option(
        metavar="YYYY-MM-DD", help="When the text was published: dates 'this May' and the MLPerf round.")] = None,
) -> None:
    """Read the numeric claims of a sentence or paragraph and check them against the official results."""
    from pipeline.run.process import check_text

    if text == "-":
        text = sys.stdin.read()
    if not text.strip():
        _fail("no text to read: give a sentence, or '-' and the text on standard input", 2)
    if date is not None:
        import datetime as dt

        try:
            dt.date.fromisoformat(date)
        except ValueError:
            _fail(f"--date must be a date as YYYY-MM-DD, not {date!r}", 2)
    claims = check_text(text, date=date)
    try:
        _print_claims(claims, as_json)
    finally:
        from pipeline import re_programs

        re_programs.save()  # the patterns the next start-up need not compile (after the answer is shown)


def _print_claims(claims: list, as_json: bool) -> None:
    from pipeline.report.fmt import display

    if as_json:
        for c in claims:
            print(c.to_json())
        return
    if not claims:
        out_console.print("No numeric claims in this text.", highlight=False)
        return
    table = Table(show_lines=True, expand=False)
    for col, ratio in (("claim", 1), ("reads as", 2), ("verdict", 1), ("why", 4)):
        table.add_column(col, ratio=ratio, overflow="fold")
    for c in claims:
        row = c.to_contract()
        shown = display(row)
        reads = shown["value"] + (f", {shown['bound']}" if row.get("bound") not in (None, "exact") else "")
        if shown["reading"]:
            reads += f" ({shown['reading']})"
        table.add_row(escape(c.text), escape(reads), shown["verdict"], escape(row.get("explanation") or ""))
    out_console.print(table)


@app.command()
def evaluate(
    run_dir: Annotated[Path, typer.Argument(metavar="RUN_DIR", help="Output folder of a run (with claims.jsonl).")],
    annotations: Annotated[Path, typer.Argument(metavar="ANNOTATIONS", help="Folder of reviewed gold claims.")],
    misses: Annotated[int, typer.Option(metavar="N", help="How many disagreements to list.")] = 40,
    as_json: Annotated[bool, typer.Option("--json", help="Print the figures as JSON.")] = False,
) -> None:
    """Precision, recall and F1 of a run against reviewed annotations, per language, with the misses."""
    from pipeline.fileio import read_jsonl
    from pipeline.review.evaluate import evaluate as run_eval
    from pipeline.review.evaluate import load_gold

    claims_path = run_dir / "claims.jsonl"
    if not claims_path.exists():
        _fail(f"{claims_path}: not found; run `newsclaims run` first", 2)
    gold = load_gold(annotations)
    if not gold:
        _fail(f"{annotations}: no gold claims found (*.jsonl)", 2)
    rep = run_eval(read_jsonl(claims_path), gold)
    figures = rep.as_dict()
    if as_json:
        figures["misses"] = rep.misses[:misses]
        print(json.dumps(figures, ensure_ascii=False, indent=1))
        return
    table = Table(title=f"extraction on {figures['docs']} annotated articles")
    for col in ("lang", "span P", "span R", "span F1", "claim P", "claim R", "claim F1", "tp", "fp", "fn"):
        table.add_column(col)
    for lang, s in figures["span"].items():
        c = figures["claim"][lang]
        table.add_row(lang, f"{s['precision']:.3f}", f"{s['recall']:.3f}", f"{s['f1']:.3f}", f"{c['precision']:.3f}",
                      f"{c['recall']:.3f}", f"{c['f1']:.3f}", str(c["tp"]), str(c["fp"]), str(c["fn"]))
    out_console.print(table)
    ftable = Table(title="agreement on matched claims")
    ftable.add_column("lang")
    ftable.add_column("field")
    ftable.add_column("accuracy")
    ftable.add_column("n")
    for lang, fs in figures["fields"].items():
        for name, v in fs.items():
            ftable.add_row(lang, name, "" if v["accuracy"] is None else f"{v['accuracy']:.3f}", str(v["n"]))
    out_console.print(ftable)
    flags = figures["red_flags"]

    def shown(v: float | int | None) -> str:
        return "-" if v is None else f"{v:.3f}"

    out_console.print(f"red flags: contradicted precision {shown(flags['contradicted_precision'])} "
                      f"({flags['contradicted_n']} called contradicted), false-alarm rate "
                      f"{shown(flags['false_alarm_rate'])}, discrepancy recall {shown(flags['discrepancy_recall'])}",
                      highlight=False)
    for m in rep.misses[:misses]:
        gold_said, pred_said = _claim_said(m.get("gold")), _claim_said(m.get("pred"))
        out_console.print(f"[yellow]{m['type']:6}[/yellow] {escape(str(m['doc']))}: gold {escape(gold_said)}; "
                          f"newsclaims {escape(pred_said)}", markup=True, highlight=False)


def _claim_said(c: dict | None) -> str:
    """'“23 秒” duration 23 s, supported [120, 124)' for a miss's side; 'nothing' where there is none."""
    if not c:
        return "nothing"
    unit = "" if c.get("unit") in (None, "count", "date") else f" {c['unit']}"
    reading = f" ({c['ratio_reading']})" if c.get("ratio_reading") else ""
    bound = f" {c['bound']}" if c.get("bound") not in (None, "exact") else ""
    verdict = f", {c['verdict']}" if c.get("verdict") else ""
    where = f"[{c.get('start')}, {c.get('end')})"
    return f"“{c.get('text')}” {c.get('kind')}{bound} {c.get('value')}{unit}{reading}{verdict} {where}"


@official_app.command("build")
def official_build(
    dirs: Annotated[list[Path], typer.Argument(
        metavar="RESULTS_DIR...", help="MLPerf Training results trees (training_results_v0.X layout).")],
    out: Annotated[Path, typer.Option(
        "--out", metavar="DIR", help="A .csv file for one table, or a folder for one per round.")],
) -> None:
    """Build the official tables from MLPerf result logs and system descriptions."""
    from pipeline.official import official_build_command

    missing = [d for d in dirs if not d.exists()]
    if missing:
        _fail(f"{missing[0]}: no such folder", 2)
    out_console.print(official_build_command(dirs, out))


def main() -> None:
    """The console script: every error newsclaims raises on purpose ends in one line and its exit code
    (pipeline/errors.py lists them); an output that cannot be written anywhere is exit 3, not a traceback."""
    # click's exceptions, wherever this typer keeps them (its own copy of click since 0.2x)
    clicks = sys.modules[typer.BadParameter.__module__]
    try:
        code = app(standalone_mode=False)
    except clicks.NoSuchOption as exc:
        exc.possibilities = _close(exc.option_name, exc.possibilities or [])
        _usage_error(exc)
    except clicks.ClickException as exc:
        _usage_error(exc)
    except typer.Abort:
        sys.exit(130)
    except NewsclaimsError as exc:
        _say("error", str(exc))
        sys.exit(exc.exit_code)
    except OSError as exc:
        if exc.errno not in WRITE_ERRNOS:
            raise
        where = f"{exc.filename}: " if exc.filename else ""
        _say("error", f"[E500] {where}cannot write ({exc.strerror}); the earlier outputs are intact")
        sys.exit(3)
    sys.exit(code if isinstance(code, int) else 0)


def entry() -> NoReturn:
    """The console script (and `python -m pipeline.cli`): main, then the process ends without the
    interpreter's teardown.  A run's process holds what it loaded (spaCy, jieba's dictionary, the tables,
    the corpus index: millions of objects), and freeing them one by one took a tenth of a second after the
    last file was written.  The exit handlers still run and the standard streams are flushed, so nothing
    else changes; an exception main does not handle ends as usual, with its traceback."""
    one_blas_thread()
    try:
        main()
        code = 0
    except SystemExit as exc:
        code = exit_status(exc.code)
    run_exit_handlers = getattr(atexit, "_run_exitfuncs", None)  # CPython's; elsewhere, exit as usual
    if run_exit_handlers is None:
        sys.exit(code)
    run_exit_handlers()
    for stream in (sys.stdout, sys.stderr):
        with contextlib.suppress(Exception):  # a closed pipe: nothing more can be said on it
            stream.flush()
    os._exit(code)


# numpy's OpenBLAS starts a thread per core when numpy is imported (spaCy and pyarrow import it) and they spin
# before they sleep: 0.08 s of CPU per process, and some 3% of a report's, for linear algebra newsclaims never
# does.  A setting of the user's own is kept.
BLAS_THREADS = ("OPENBLAS_NUM_THREADS", "1")


def one_blas_thread() -> None:
    """What the command line sets before anything imports numpy (the console script's first step)."""
    os.environ.setdefault(*BLAS_THREADS)


def exit_status(code: object) -> int:
    """The process's exit status for SystemExit(code), as Python gives it: None is 0, a number itself, and
    anything else is written to stderr and is 1."""
    if code is None:
        return 0
    if isinstance(code, int):
        return code
    with contextlib.suppress(Exception):
        print(code, file=sys.stderr)
    return 1


def _close(typed: str, known: list[str]) -> list[str]:
    """Options like the one typed, compared without their dashes: '--bogus' is like no option (difflib over
    the whole string finds '--out' like it, for the dashes they share)."""
    import difflib

    bare = {k.lstrip("-"): k for k in known}
    return [bare[m] for m in difflib.get_close_matches(typed.lstrip("-"), list(bare), n=3, cutoff=0.7)]


def _usage_error(exc: Exception) -> NoReturn:
    """A click usage error drawn as typer draws it, with its exit code (2)."""
    from typer import rich_utils

    rich_utils.rich_format_error(exc)  # type: ignore[arg-type]
    sys.exit(getattr(exc, "exit_code", 2))


if __name__ == "__main__":
    entry()
