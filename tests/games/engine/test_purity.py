"""The engine is pure: standard library only, no Django, Channels or Celery (issue 2)."""

from __future__ import annotations

import ast
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[3]
ENGINE = ROOT / "games" / "engine"
FORBIDDEN = {"django", "channels", "celery"}


def engine_files() -> list[Path]:
    return sorted(ENGINE.rglob("*.py"))


def absolute_imports(path: Path) -> list[str]:
    """Top-level names of every absolute ``import x`` / ``from x import y`` in a file."""
    names = []
    for node in ast.walk(ast.parse(path.read_text(), filename=str(path))):
        if isinstance(node, ast.Import):
            names += [alias.name.split(".")[0] for alias in node.names]
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            names.append(node.module.split(".")[0])
    return names


def test_the_walk_sees_every_engine_module():
    """The AST walk covers the engine's modules (so the purity checks below can fail)."""
    found = {p.name for p in engine_files()}
    assert {"__init__.py", "rules.py", "cards.py", "views.py", "simulate.py", "expert.py"} <= found
    assert absolute_imports(ENGINE / "deal.py").count("random") == 1


def test_no_engine_module_imports_django_channels_or_celery():
    """No import or from-import anywhere under games/engine names django, channels or celery."""
    offenders = {
        f"{path.relative_to(ROOT)}: {name}"
        for path in engine_files()
        for name in absolute_imports(path)
        if name in FORBIDDEN
    }
    assert offenders == set()


def test_engine_imports_only_the_standard_library():
    """Every absolute import under games/engine is a standard-library module (or __future__)."""
    allowed = set(sys.stdlib_module_names) | {"__future__"}
    offenders = {
        f"{path.relative_to(ROOT)}: {name}"
        for path in engine_files()
        for name in absolute_imports(path)
        if name not in allowed
    }
    assert offenders == set()


def test_importing_the_engine_loads_no_django_channels_or_celery():
    """Importing games.engine and all its modules in a fresh interpreter leaves none of django,
    channels or celery in sys.modules."""
    modules = sorted(
        "games.engine."
        + ".".join(p.relative_to(ENGINE).with_suffix("").parts).removesuffix(".__init__")
        for p in engine_files()
        if p != ENGINE / "__init__.py"
    )
    code = (
        "import importlib, sys\n"
        "import games.engine\n"
        f"for name in {modules!r}:\n"
        "    importlib.import_module(name)\n"
        f"bad = sorted(m for m in sys.modules if m.split('.')[0] in {sorted(FORBIDDEN)!r})\n"
        "print(len([m for m in sys.modules if m.startswith('games.engine.')]), bad)\n"
    )
    proc = subprocess.run(
        [sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, timeout=60
    )
    assert proc.returncode == 0, proc.stderr
    count, bad = proc.stdout.strip().split(" ", 1)
    assert int(count) == len(modules)
    assert bad == "[]"
