"""The package reads as its stages in order (#19): no module imports one that imports it back, and no stage
imports a later one.  Read from the source with ast: every import, including those inside functions (a
cycle through a lazy import is still a cycle); imports under `if TYPE_CHECKING:` are for type checkers only.
"""

from __future__ import annotations

import ast
from collections import defaultdict
from pathlib import Path

PACKAGE = Path(__file__).resolve().parents[1] / "pipeline"

# Each stage may import its own and earlier ones.  The run orchestrates the stages (and hands the report the
# index it built); review works on a run's outputs; the CLI and the package's API sit on top.
STAGES = [
    {"errors", "settings", "fileio", "records", "procs", "spacy_import", "re_programs", "native"},
    {"lang"},
    {"ingest"},
    {"segment"},
    {"extract"},
    {"link"},
    {"official"},
    {"reconcile"},
    {"report"},
    {"run"},
    {"review"},
    {"cli", "__init__", "nativebuild"},
]
LEVEL = {name: n for n, names in enumerate(STAGES) for name in names}


def _modules() -> dict[str, Path]:
    out = {}
    for path in PACKAGE.rglob("*.py"):
        parts = path.relative_to(PACKAGE.parent).with_suffix("").parts
        name = ".".join(parts[:-1] if parts[-1] == "__init__" else parts)
        out[name] = path
    return out


def _type_checking_nodes(tree: ast.AST) -> set[int]:
    skip = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.If) and "TYPE_CHECKING" in ast.unparse(node.test):
            skip |= {id(n) for n in ast.walk(node)}
    return skip


def _graph() -> dict[str, set[str]]:
    mods = _modules()
    edges: dict[str, set[str]] = defaultdict(set)
    for name, path in mods.items():
        tree = ast.parse(path.read_text(encoding="utf-8"))
        skip = _type_checking_nodes(tree)
        for node in ast.walk(tree):
            if id(node) in skip:
                continue
            targets: list[str] = []
            if isinstance(node, ast.ImportFrom) and node.module and node.module.startswith("pipeline"):
                subs = [f"{node.module}.{a.name}" for a in node.names if f"{node.module}.{a.name}" in mods]
                # `from pipeline.link import frames` depends on the submodule, `from pipeline.link import
                # load_kb` on the package
                targets = subs if len(subs) == len(node.names) else [node.module, *subs]
            elif isinstance(node, ast.Import):
                targets = [a.name for a in node.names if a.name.startswith("pipeline")]
            edges[name] |= {t for t in targets if t in mods and t != name}
    return edges


def _stage(module: str) -> str:
    parts = module.split(".")
    return parts[1] if len(parts) > 1 else "__init__"


def _cycles(edges: dict[str, set[str]]) -> list[list[str]]:
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on: set[str] = set()
    found: list[list[str]] = []

    def visit(v: str) -> None:  # Tarjan's strongly connected components
        index[v] = low[v] = len(index)
        stack.append(v)
        on.add(v)
        for w in edges.get(v, ()):
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            comp = []
            while True:
                w = stack.pop()
                on.discard(w)
                comp.append(w)
                if w == v:
                    break
            if len(comp) > 1:
                found.append(sorted(comp))

    for v in sorted(_modules()):
        if v not in index:
            visit(v)
    return found


def test_every_stage_has_a_place_in_the_order() -> None:
    assert {_stage(m) for m in _modules()} <= set(LEVEL)


def test_no_module_imports_one_that_imports_it_back() -> None:
    assert _cycles(_graph()) == []


def test_no_stage_imports_a_later_one() -> None:
    backwards = sorted({(_stage(a), _stage(b)) for a, targets in _graph().items() for b in targets
                        if LEVEL[_stage(b)] > LEVEL[_stage(a)]})
    assert backwards == []


MAX_FUNCTION_LINES = 80


def test_no_function_is_longer_than_a_screen() -> None:
    long = []
    for name, path in _modules().items():
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
                lines = node.end_lineno - node.lineno + 1  # type: ignore[operator]
                if lines > MAX_FUNCTION_LINES:
                    long.append(f"{name}.{node.name}: {lines} lines")
    assert long == []


# Language data and the knowledge base are loaded by the loader and handed on: the per-article stages get
# them from the Pipeline (through Segmented.langs and the reconcile context), as spaCy's pipes get the
# Language's vocab; the report and review commands load them once where they start.  Anywhere else a
# loader call may only stand in for an argument left out (`kb or load_kb()`), so that a function can still
# be called alone with the shipped data.
LOADERS = {"load_language", "load_kb", "languages", "load_all"}
LOADING = ("pipeline.lang.loader", "pipeline.link.kb", "pipeline.run.process")


def _loader_calls(tree: ast.AST) -> list[ast.Call]:
    fallbacks: set[int] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.BoolOp) and isinstance(node.op, ast.Or) and len(node.values) == 2:
            right = node.values[1]
            target = right.value if isinstance(right, ast.Subscript) else right
            fallbacks.add(id(target))
        if isinstance(node, ast.Call) and getattr(node.func, "id", None) == "field":
            fallbacks.update(id(k.value) for k in node.keywords if k.arg == "default_factory")
    return [n for n in ast.walk(tree) if isinstance(n, ast.Call) and getattr(n.func, "id", None) in LOADERS
            and id(n) not in fallbacks]


def test_language_data_is_handed_on_not_fetched() -> None:
    found = []
    for name, path in _modules().items():
        if name not in LOADING:
            for call in _loader_calls(ast.parse(path.read_text(encoding="utf-8"))):
                found.append(f"{name}:{call.lineno} {ast.unparse(call)}")
    assert not found, "fetched instead of handed:\n" + "\n".join(found)
