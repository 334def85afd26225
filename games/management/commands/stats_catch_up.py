"""``manage.py stats_catch_up``: count every finished match without statistics yet (matches
played before the statistics existed, or whose signal was lost), oldest first."""

from typing import Any

from django.core.management.base import BaseCommand

from games.records.player_stats import do_catch_up


class Command(BaseCommand):
    help = "Count the statistics and site ratings of finished matches not counted yet."

    def handle(self, *args: str, **options: Any) -> None:
        done = do_catch_up()
        self.stdout.write(f"counted {done} finished match(es)")
