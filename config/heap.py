"""Short garbage-collector pauses in the long-lived processes: Daphne and the Celery worker.

CPython's collection of its oldest generation walks every tracked object of the process. After
start-up a Daphne process holds Django, the apps, the compiled templates and the translation
catalogues — hundreds of thousands of objects that live as long as the process. In the load
benchmark (issue #8) such full passes stopped a Daphne process for 77 ms and 155 ms at a time,
and every socket of the process waited: they were the tail of the send-to-last-socket latency
on an idle machine.

``settle`` loads what every process would otherwise load lazily on its first pages and frames,
then ``gc.freeze()`` moves all of it to the permanent generation, which collections skip. What is
created later (per-match caches, frames, sessions) is still collected as before.
"""

from __future__ import annotations

import gc
import logging
from pathlib import Path

log = logging.getLogger(__name__)

#: Template folders whose every template is compiled before the heap is frozen (the table's
#: regions and the lobby are rendered on every push).
WARM_TEMPLATE_DIRS = ("games", "games/partials")


def settle() -> int:
    """Compile the table's templates and load every language's catalogue, collect once, then
    freeze the heap. Returns the number of objects frozen. Call once per process, after Django
    is set up (``config.asgi``, the worker's ``worker_process_init``)."""
    _warm_templates()
    _warm_translations()
    gc.collect()
    gc.freeze()
    frozen = gc.get_freeze_count()
    log.info("heap settled: %d objects frozen", frozen)
    return frozen


def _warm_templates() -> None:
    from django.template import engines
    from django.template.loader import get_template

    for base in engines["django"].dirs:  # TEMPLATES' DIRS
        for folder in WARM_TEMPLATE_DIRS:
            for path in sorted(Path(base, folder).glob("*.html")):
                get_template(f"{folder}/{path.name}")
            # the hot partials in Jinja (games/live/jinja.py), beside them
            for path in sorted(Path(base, folder).glob("*.jinja")):
                engines["jinja2"].get_template(f"{folder}/{path.name}")


def _warm_translations() -> None:
    from django.conf import settings
    from django.utils import translation

    for code, _name in settings.LANGUAGES:
        with translation.override(code):
            translation.gettext("Pass")
