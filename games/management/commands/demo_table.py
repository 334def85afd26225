"""Open and start a table of AI seats only: a demo match anyone can watch."""

from __future__ import annotations

from typing import Any

from django.contrib.auth import get_user_model
from django.core.management.base import BaseCommand, CommandError, CommandParser

from games.models import Seat
from games.play import tables


class Command(BaseCommand):
    help = "Open a public table with AI seats only, start its match and print the table's id."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--host", default="demo", help="username of the table's host")
        parser.add_argument("--players", type=int, default=4)
        parser.add_argument("--claim-seconds", type=float, default=2)
        parser.add_argument("--turn-seconds", type=float, default=20)
        parser.add_argument("--target-level", default="A")

    def handle(self, *args: str, **opts: Any) -> None:
        host = get_user_model().objects.filter(username=opts["host"]).first()
        if host is None:
            raise CommandError(f"no user {opts['host']!r}")
        try:
            table = tables.create_table(
                host,
                name="AI demo",
                players=opts["players"],
                options={
                    "claim_window_seconds": opts["claim_seconds"],
                    "turn_seconds": opts["turn_seconds"],
                    "target_level": opts["target_level"],
                },
            )
            # The AI seats first: a table its host stands up from with every seat empty closes.
            tables.fill_with_ai(table.pk, host, Seat.Policy.HEURISTIC)
            tables.leave_seat(table.pk, host)
            tables.fill_with_ai(table.pk, host, Seat.Policy.HEURISTIC)
            tables.start(table.pk, host)
        except tables.TableError as e:
            raise CommandError(str(e)) from None
        self.stdout.write(str(table.pk))
