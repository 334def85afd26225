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
        assert {
            "games/partials/status.html",
            "games/partials/seat.html",
            "games/table.html",
        } <= compiled
    finally:
        gc.unfreeze()
