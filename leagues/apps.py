"""The app's configuration: its name in the admin, and the signal receivers it connects at start
(``leagues.results`` records finished matches)."""

from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class LeaguesConfig(AppConfig):
    name = "leagues"
    verbose_name = _("Leagues and tournaments")

    def ready(self) -> None:
        # Results feed standings and ratings when a match ends (games.signals.match_finished).
        from leagues import results  # noqa: F401
        from leagues.organising import register_organisers

        register_organisers()
