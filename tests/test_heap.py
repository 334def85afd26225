"""config.heap: what a Daphne process or a worker loads at start-up is frozen out of the GC."""

from __future__ import annotations

import gc

from django.template import engines

from config import heap


def test_settle_compiles_the_table_templates_and_freezes_the_heap():
    gc.unfreeze()
    try:
        frozen = heap.settle()
        assert frozen == gc.get_freeze_count() > 10_000
        loader = engines["django"].engine.template_loaders[0]  # the cached loader
        compiled = {
            key.split(":")[0] if isinstance(key, str) else key[0]
            for key in loader.get_template_cache
        }
        assert {"games/partials/seats.html", "games/table.html"} <= compiled
        jinja = engines["jinja2"].env.cache  # Jinja keeps its own compiled templates
        assert {
            "games/partials/status.jinja",
            "games/partials/seat.jinja",
            "games/partials/claim_bar.jinja",
        } <= {name for _loader, name in jinja.keys()}
    finally:
        gc.unfreeze()
