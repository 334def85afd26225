"""config.heap: what a Daphne process or a worker loads at start-up is frozen out of the GC."""

from __future__ import annotations

import gc

from django.template import engines

from config import heap


def test_settle_compiles_the_table_templates_and_freezes_the_heap():
    """``settle`` compiles the table's templates and freezes what is alive.

    It runs on the heap as tests.gc_tuning left it (frozen after the collection), not on an
    unfrozen one: unfreezing made settle's collection walk the worker's whole heap (~5 s of CPU
    late in a run) and left the worker's later tests without the freeze. Objects alive when
    settle runs must be frozen by it (the freeze count drops as frozen objects die, so the
    test looks for its own objects rather than compare counts)."""
    alive = [[] for _ in range(1_000)]  # tracked containers that outlive the call
    before = gc.get_freeze_count()
    frozen = heap.settle()
    assert frozen >= before + len(alive)
    # Frozen: in none of the three generations the collector walks (after settle they hold
    # only what was made since, so listing them is cheap).
    collected = {id(o) for generation in (0, 1, 2) for o in gc.get_objects(generation)}
    assert not any(id(container) in collected for container in alive)
    loader = engines["django"].engine.template_loaders[0]  # the cached loader
    compiled = {
        key.split(":")[0] if isinstance(key, str) else key[0] for key in loader.get_template_cache
    }
    assert {"games/partials/seats.html", "games/table.html"} <= compiled
    jinja = engines["jinja2"].env.cache  # Jinja keeps its own compiled templates
    assert {
        "games/partials/status.jinja",
        "games/partials/seat.jinja",
        "games/partials/claim_bar.jinja",
    } <= {name for _loader, name in jinja.keys()}
    del alive
