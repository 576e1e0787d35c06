"""The `newsclaims` command line: thin wrappers over the library's functions."""

from __future__ import annotations

import json
import os
import sys
from pathlib import Path
from typing import Annotated

import typer
from rich.console import Console
from rich.table import Table

from pipeline.errors import NewsclaimsError
from pipeline.settings import Settings

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

ConfigOpt = Annotated[Path | None, typer.Option("--config", help="TOML file with a [tool.newsclaims] table.")]


def _settings(config: Path | None) -> Settings:
    if config is not None:
        return Settings.from_toml(config)
    here = Path("pyproject.toml")
    if here.exists():
        try:
            return Settings.from_toml(here)
        except NewsclaimsError:
            pass
    return Settings()


@app.command()
def run(
    input_dir: Annotated[Path, typer.Argument(help="Folder of articles (.txt, .md, .html), searched recursively.")],
    out: Annotated[Path, typer.Option("--out", help="Output folder (claims.jsonl, claims.csv, errors.jsonl).")],
    official: Annotated[Path | None, typer.Option(help="Official table (CSV) to reconcile against.")] = None,
    engine: Annotated[str, typer.Option(help="local or dask.")] = "local",
    scheduler: Annotated[str | None, typer.Option(help="Dask scheduler address (default: a local cluster).")] = None,
    workers: Annotated[int, typer.Option(help="Worker processes (0: one per CPU core).")] = 1,
    config: ConfigOpt = None,
    quiet: Annotated[bool, typer.Option("--quiet", "-q", help="No progress bar.")] = False,
    follow_symlinks: Annotated[bool, typer.Option(
        "--follow-symlinks", help="Read file links whose target lies outside INPUT_DIR (off: listed in "
        "errors.jsonl, not read).")] = False,
) -> None:
    """Extract and check every numeric claim of the articles in INPUT_DIR."""
    from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn

    from pipeline.run.batch import run_batch

    if not input_dir.exists():
        console.print(f"[red]error:[/red] {input_dir}: no such file or folder")
        raise typer.Exit(2)
    settings = _settings(config)
    if official is not None:
        settings = settings.updated({"official": str(official)})
    if follow_symlinks:
        settings = settings.updated({"follow_symlinks": True})
    if workers < 0:
        console.print(f"[red]error:[/red] --workers must be 0 (one per CPU core) or more, not {workers}")
        raise typer.Exit(2)
    workers = workers or _cpu_cores()
    if engine not in ("local", "dask"):
        console.print(f"[red]error:[/red] --engine must be local or dask, not {engine!r}")
        raise typer.Exit(2)
    if engine == "dask":
        try:
            import dask.distributed  # noqa: F401
        except ImportError:
            console.print("[red]error:[/red] --engine dask needs dask.distributed: pip install 'newsclaims[dask]'")
            raise typer.Exit(2) from None
    with Progress(TextColumn("[bold]newsclaims"), BarColumn(), MofNCompleteColumn(), TimeElapsedColumn(),
                  TextColumn("{task.description}"), console=console, disable=quiet) as bar:
        task = bar.add_task("", total=None)

        def progress(done: int, total: int, doc: str) -> None:
            bar.update(task, completed=done, total=total, description=doc[-50:])

        summary = run_batch(input_dir, out, settings, workers=workers, progress=progress, engine=engine,
                            scheduler=scheduler)
        _write_run_info(out, input_dir, settings, summary)
        from pipeline.report import write_reports
        from pipeline.run import current

        # the report of a large corpus takes minutes: its parts count on a bar of their own
        report_task = bar.add_task("report", total=None)

        def report_progress(done: int, total: int, what: str) -> None:
            bar.update(report_task, completed=done, total=total, description=what)

        # the reports are made of the merged outputs, the articles (both in outputs_key) and these
        key = current.make_key("report", summary.outputs_key, str(input_dir.resolve()), str(out.resolve()),
                               settings.official, settings.report_page_articles)
        if summary.outputs_key and current.current(out, "report", key) is not None:
            bar.update(report_task, completed=1, total=1, description="report already current")
        else:
            current.forget(out, "report")
            written = write_reports(out, input_dir, per_page=settings.report_page_articles, workers=workers,
                                    progress=report_progress, index=summary.index)
            if summary.outputs_key:
                current.mark(out, "report", key, written)
    console.print(f"{summary.articles} articles ({summary.reused} unchanged since the last run), "
                  f"{summary.claims} claims, {summary.errors} errors -> {out}")
    for doc in summary.error_docs[:10]:
        console.print(f"  [yellow]could not process[/yellow] {doc} (see errors.jsonl)")
    if not summary.ok:
        console.print("[red]error:[/red] no article could be read")
        raise typer.Exit(1)


def _cpu_cores() -> int:
    """The cores this process may run on (a container or taskset may allow fewer than the machine has)."""
    try:
        return len(os.sched_getaffinity(0)) or 1
    except AttributeError:  # not on Linux
        return os.cpu_count() or 1


def _write_run_info(out: Path, input_dir: Path, settings: Settings, summary) -> None:
    """OUT_DIR/run.json: what the run read, so reports and exports can find the articles again."""
    from pipeline.fileio import atomic_write_text
    from pipeline.run.process import pipeline_version

    info = {"input_dir": str(input_dir.resolve()), "official": settings.official, "version": pipeline_version(),
            "articles": summary.articles, "claims": summary.claims, "errors": summary.errors}
    atomic_write_text(out / "run.json", json.dumps(info, ensure_ascii=False, indent=1))


@app.command()
def report(
    run_dir: Annotated[Path, typer.Argument(help="Output folder of a run (with claims.jsonl).")],
    input_dir: Annotated[
        Path | None, typer.Option("--input", help="The articles' folder (default: from run.json).")
    ] = None,
    config: ConfigOpt = None,
) -> None:
    """Rebuild report.html, report.md, chart.svg and claims.parquet from claims.jsonl, without rerunning."""
    from pipeline.report.cli import report_command

    for path in report_command(run_dir, input_dir, per_page=_settings(config).report_page_articles):
        out_console.print(f"Wrote {path}")


@annotate_app.command("export")
def annotate_export_cmd(
    run_dir: Annotated[Path, typer.Argument(help="Output folder of a run.")],
    to: Annotated[Path, typer.Option("--to", help="Tasks file, or a folder for tasks and the labeling config.")],
    fmt: Annotated[str, typer.Option("--format", help="label-studio, prodigy or doccano.")] = "label-studio",
    input_dir: Annotated[Path | None, typer.Option("--input", help="The articles' folder (default: run.json).")] = None,
) -> None:
    """Claims and entities as pre-annotated tasks, with values, readings and verdicts as span attributes."""
    from pipeline.review import annotate_export

    out_console.print(annotate_export(run_dir, fmt, to, input_dir))


@annotate_app.command("import")
def annotate_import_cmd(
    file: Annotated[Path, typer.Argument(help="A reviewed export (Label Studio JSON, Prodigy or doccano JSONL).")],
    to: Annotated[Path, typer.Option("--to", help="The gold folder to merge into.")] = Path("annotations"),
    reviewer: Annotated[str | None, typer.Option(help="Reviewer name when the file gives none.")] = None,
) -> None:
    """Merge a review into annotations/: never overwrites another reviewer's decision (conflicts are kept)."""
    from pipeline.review import annotate_import

    summary = annotate_import(file, to, reviewer=reviewer)
    out_console.print(summary)
    if summary.skipped:
        # a partial import is no success: the reviewer must fix the export (nothing of those was written)
        console.print(f"[red]error:[/red] {summary.skipped} annotation(s) not imported: regions that could not "
                      "be placed (see problems)")
        raise typer.Exit(1)


@app.command()
def review(
    run_dir: Annotated[Path, typer.Argument(help="Output folder of a run.")],
    annotations: Annotated[Path, typer.Option(help="Gold folder the decisions go to.")] = Path("annotations"),
    host: Annotated[str, typer.Option(help="Address to bind (local only by default).")] = "127.0.0.1",
    port: Annotated[int, typer.Option(help="Port.")] = 8765,
    reviewer: Annotated[str | None, typer.Option(help="Your name, recorded with each decision.")] = None,
) -> None:
    """A local page to accept, reject or correct claims one at a time (keys: a, r, c, j/k, u)."""
    from pipeline.review import review_serve

    review_serve(run_dir, annotations, host, port, reviewer)


@export_app.command("claimreview")
def export_claimreview_cmd(
    run_dir: Annotated[Path, typer.Argument(help="Output folder of a run.")],
    to: Annotated[
        Path | None, typer.Option("--to", help="Where to write (default RUN_DIR/claimreview.jsonld).")
    ] = None,
) -> None:
    """schema.org ClaimReview JSON-LD for the supported, contradicted and ambiguous claims."""
    from pipeline.reconcile.claimreview import export_claimreview

    if not (run_dir / "claims.jsonl").exists():
        console.print(f"[red]error:[/red] {run_dir / 'claims.jsonl'}: not found; run `newsclaims run` first")
        raise typer.Exit(2)
    out_console.print(f"Wrote {export_claimreview(run_dir, to)}")


@app.command()
def extract(
    text: Annotated[str, typer.Argument(help="Text to analyse; '-' reads standard input.")],
    as_json: Annotated[bool, typer.Option("--json", help="JSON lines instead of a table.")] = False,
) -> None:
    """Print the numeric claims of a sentence or paragraph."""
    from pipeline.run.process import extract_text

    if text == "-":
        text = sys.stdin.read()
    claims = extract_text(text)
    if as_json:
        for c in claims:
            print(c.to_json())
        return
    table = Table(show_lines=False)
    for col in ("text", "kind", "value", "unit", "counted", "of", "bound", "low", "high", "reading"):
        table.add_column(col)
    for c in claims:
        of_total = "" if c.of_total is None else str(c.of_total)
        table.add_row(c.text, c.kind, str(c.value), c.unit, c.counted or "", of_total,
                      c.bound, "" if c.low is None else f"{c.low:g}", "" if c.high is None else f"{c.high:g}",
                      c.ratio_reading or "")
    out_console.print(table)


@app.command()
def evaluate(
    run_dir: Annotated[Path, typer.Argument(help="Output folder of a run (with claims.jsonl).")],
    annotations: Annotated[Path, typer.Argument(help="Folder of reviewed gold claims.")],
    misses: Annotated[int, typer.Option(help="How many disagreements to list.")] = 40,
    as_json: Annotated[bool, typer.Option("--json", help="Print the figures as JSON.")] = False,
) -> None:
    """Precision, recall and F1 of a run against reviewed annotations, per language, with the misses."""
    from pipeline.fileio import read_jsonl
    from pipeline.review.evaluate import evaluate as run_eval
    from pipeline.review.evaluate import load_gold

    claims_path = run_dir / "claims.jsonl"
    if not claims_path.exists():
        console.print(f"[red]error:[/red] {claims_path}: not found; run `newsclaims run` first")
        raise typer.Exit(2)
    gold = load_gold(annotations)
    if not gold:
        console.print(f"[red]error:[/red] {annotations}: no gold claims found (*.jsonl)")
        raise typer.Exit(2)
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
        out_console.print(f"[yellow]{m['type']:6}[/yellow] {m['doc']}: gold={m.get('gold')} pred={m.get('pred')}",
                          markup=True, highlight=False)


@official_app.command("build")
def official_build(
    dirs: Annotated[list[Path], typer.Argument(help="MLPerf Training results trees (training_results_v0.X layout).")],
    out: Annotated[Path, typer.Option("--out", help="A .csv file for one table, or a folder for one per round.")],
) -> None:
    """Build the official tables from MLPerf result logs and system descriptions."""
    from pipeline.official import official_build_command

    missing = [d for d in dirs if not d.exists()]
    if missing:
        console.print(f"[red]error:[/red] {missing[0]}: no such folder")
        raise typer.Exit(2)
    out_console.print(official_build_command(dirs, out))


def main() -> None:
    try:
        app()
    except NewsclaimsError as exc:
        console.print(f"[red]error:[/red] {exc}")
        sys.exit(2)


if __name__ == "__main__":
    main()
