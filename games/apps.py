from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class GamesConfig(AppConfig):
    name = "games"
    verbose_name = _("Games")

    def ready(self) -> None:
        from games.sockets import session_guard

        # Ending a session (log-out, password, deactivation, a deleted session) ends its sockets.
        session_guard.connect_signals()
        # Finished matches feed statistics and the site rating (games.signals.match_finished).
        from games.records import player_stats  # noqa: F401
