"""The order a run takes its tests in (loaded as a plugin: ``-p tests.run_order`` in pyproject's
addopts).

Its hook runs last, after pytest-django's (which puts the plain database tests first, then the
transactional ones, then the rest) and after ``tests/conftest.py`` has marked the live tests and
put them in their xdist groups:

- the browser tests last and together, in a serial run too, so the live stack starts once; the
  tests of the ``worker`` fixture together just before them, so their pair of Celery workers
  starts once;
- of the rest, the live and slow ones first. Under ``--dist loadgroup`` xdist sends the groups
  out largest first and the single tests in this order: a test that waits half a minute on
  processes it started (``make run``'s supervisor, a Redis restart) then starts while the fast
  tests still fill the other workers, not last and alone at the end of the run.

The sort is stable: within each class pytest-django's order holds. No test may depend on it.
"""

from __future__ import annotations

import pytest


def _place(item: pytest.Item) -> tuple[bool, bool, bool]:
    long = item.get_closest_marker("live") or item.get_closest_marker("slow")
    return (
        item.get_closest_marker("browser") is not None,
        "worker" in getattr(item, "fixturenames", ()),
        long is None,
    )


@pytest.hookimpl(trylast=True)
def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """Put ``items`` in the run's order (the module docstring)."""
    items.sort(key=_place)
