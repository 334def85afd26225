"""``manage.py makemessages``, Django's own, that also finds the Jinja partials' strings.

Django's command reads Python files and Django templates only. The table's hot partials are
Jinja (``*.jinja`` in the Jinja2 backend's ``DIRS``; ``games.live.jinja``): after Django has
written the domain's ``.pot``, their messages are extracted with Babel's Jinja extractor
(``jinja2.ext.babel_extract``, new-style gettext as at run time) and added to it, before
``msguniq`` joins entries found in both and ``msgmerge`` brings the ``.po`` catalogues up to date.
Their message ids are Django's (``{% trans %}``'s ``{{ name }}`` is ``%(name)s``, as
``{% blocktranslate %}``'s), so one ``django.po`` per language holds both engines' strings.
``make messages`` runs it.
"""

from __future__ import annotations

import io
import os
from pathlib import Path

from babel.messages.catalog import Catalog
from babel.messages.extract import DEFAULT_KEYWORDS, extract
from babel.messages.pofile import write_po
from django.core.management.commands import makemessages
from django.template import engines

#: The Jinja extractor's options: the run-time environment's (``games.live.jinja``).
JINJA_OPTIONS = {"extensions": "jinja2.ext.i18n", "newstyle_gettext": "true", "silent": "false"}
#: Babel's keywords, and the escaped ``{% translate … context … %}`` (``games.live.jinja``).
JINJA_KEYWORDS = {**DEFAULT_KEYWORDS, "pgettext_escaped": ((1, "c"), 2)}


class Command(makemessages.Command):
    help = makemessages.Command.help + " Also the Jinja partials' messages (Babel's extractor)."

    def process_files(self, file_list: list[makemessages.TranslatableFile]) -> None:
        super().process_files(file_list)
        if self.domain != "django" or not self.default_locale_path:
            return
        catalog = jinja_messages(Path.cwd())
        if not len(catalog):
            return
        out = io.BytesIO()
        write_po(out, catalog, omit_header=True, width=79)
        potfile = os.path.join(self.default_locale_path, f"{self.domain}.pot")
        with open(potfile, "a", encoding="utf-8") as pot:
            pot.write("\n" + out.getvalue().decode("utf-8"))
        if self.verbosity > 1:
            self.stdout.write(f"added {len(catalog)} Jinja messages to {potfile}\n")


def jinja_messages(root: Path) -> Catalog:
    """Every message of the ``*.jinja`` templates in the Jinja2 backend's directories, with
    their places relative to ``root``."""
    catalog = Catalog(charset="utf-8")
    for folder in engines["jinja2"].template_dirs:
        for path in sorted(Path(folder).rglob("*.jinja")):
            place = os.path.relpath(path, root)
            with path.open("rb") as source:
                for lineno, message, comments, context in extract(
                    "jinja2.ext:babel_extract",
                    source,
                    keywords=JINJA_KEYWORDS,
                    options=JINJA_OPTIONS,
                ):
                    catalog.add(
                        message,
                        locations=[(place, lineno)],
                        auto_comments=comments,
                        context=context,
                    )
    return catalog
