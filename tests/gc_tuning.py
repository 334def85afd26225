"""The garbage collector of a test process: fewer young collections, and what collection built
frozen out of the full ones.

Loaded as a plugin (``-p tests.gc_tuning`` in pyproject's addopts), before pytest-django sets up
Django, so it covers the imports and the collection too. A pytest process builds a large heap
that lives as long as it does: Django, the apps, every test module, the collected items and
their fixture closures (some 550,000 objects on a worker). With CPython's default thresholds
(700, 10, 10) each oldest-generation pass walked all of it, ~0.2 s of CPU each, and the young
passes ran every 700 allocations: 3.8 s of a worker's 38 s of test CPU went to the collector
(tests/accounts, tests/leagues and tests/games/api at ``-n 0``, timed with ``gc.callbacks``).

- ``gc.set_threshold(20_000, 20, 20)``: a young pass every 20,000 net allocations, an older one
  every 20 of those. The cycles are still collected, later; a test that needs them gone calls
  ``gc.collect()`` itself (tests/games/live/test_frames.py does).
- At the end of the collection, one full pass and ``gc.freeze()``: what exists then (the imports,
  the items) moves to the permanent generation, which later passes skip (as config.heap does
  for Daphne and the workers). tests/test_heap.py tests ``heap.settle`` on that frozen heap.

The same three directories: the collector's CPU 3.8 -> 1.4 s (load 2.9-3.8); the collection
of the fast tests 3.3-3.8 -> 3.0-3.2 s of CPU.
"""

from __future__ import annotations

import gc

import pytest

gc.set_threshold(20_000, 20, 20)


@pytest.hookimpl(trylast=True)
def pytest_collection_finish(session: pytest.Session) -> None:
    gc.collect()
    gc.freeze()
