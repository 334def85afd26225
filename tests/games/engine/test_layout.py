"""The engine's modules import one another without circles (issue "One house with clear rooms").

Every import counts, also one inside a function: a local import that only hides a circle is still
the circle. The graph is read from the source (no import runs), like ``grimp.build_graph``.
"""

from __future__ import annotations

import ast
from pathlib import Path
from typing import TYPE_CHECKING

if TYPE_CHECKING:  # imported where the graph is built: ~0.1 s at every test process's collection
    import networkx as nx

ROOT = Path(__file__).resolve().parents[3]
ENGINE = ROOT / "games" / "engine"


def module_name(path: Path) -> str:
    parts = path.relative_to(ROOT).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def imported(path: Path, modules: set[str]) -> set[str]:
    """The engine modules ``path`` imports (anywhere in it), as dotted names."""
    name = module_name(path)
    package = name if path.name == "__init__.py" else name.rpartition(".")[0]
    found = set()
    for node in ast.walk(ast.parse(path.read_text(), filename=str(path))):
        if isinstance(node, ast.Import):
            targets = [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                anchor = package.split(".")
                anchor = anchor[: len(anchor) - (node.level - 1)]
                base = ".".join(anchor + ([base] if base else []))
            # ``from pkg import mod`` imports the module pkg.mod when there is one
            targets = [base] + [f"{base}.{alias.name}" for alias in node.names]
        else:
            continue
        found |= {t for t in targets if t in modules}
    return found - {name}


def engine_graph() -> nx.DiGraph:
    import networkx as nx

    paths = sorted(ENGINE.rglob("*.py"))
    modules = {module_name(p) for p in paths}
    graph = nx.DiGraph()
    for path in paths:
        graph.add_node(module_name(path))
        graph.add_edges_from((module_name(path), t) for t in imported(path, modules))
    return graph


def test_the_graph_sees_the_ai_package():
    """The walk finds the AI package's modules and their imports (so the check below can fail)."""
    graph = engine_graph()
    assert ("games.engine.ai.expert", "games.engine.ai.base") in graph.edges
    assert ("games.engine.ai.registry", "games.engine.ai.expert") in graph.edges
    assert ("games.engine.simulate", "games.engine.ai.registry") in graph.edges


def test_no_import_circles_in_the_engine():
    """No strongly connected component of more than one module."""
    import networkx as nx

    circles = [sorted(c) for c in nx.strongly_connected_components(engine_graph()) if len(c) > 1]
    assert circles == []


def test_only_simulate_and_the_review_use_the_ai_package():
    """The rules do not depend on the AI: outside ``games.engine.ai`` only ``simulate`` and the
    review (``games.engine.review``, the expert judging a seat's play) import it."""
    graph = engine_graph()
    users = {
        source
        for source, target in graph.edges
        if target.startswith("games.engine.ai") and not source.startswith("games.engine.ai")
    }
    assert {u for u in users if not u.startswith("games.engine.review.")} == {
        "games.engine.simulate"
    }
    assert "games.engine.review.judge" in users
