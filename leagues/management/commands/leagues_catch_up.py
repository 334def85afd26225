"""Record results of finished league and tournament matches whose signal was lost."""

from typing import Any

from django.core.management.base import BaseCommand

from leagues.results import do_catch_up


class Command(BaseCommand):
    help = "Record every finished fixture or tournament match still without its result."

    def handle(self, *args: Any, **options: Any) -> None:
        done = do_catch_up()
        self.stdout.write(f"{done} result(s) recorded")
