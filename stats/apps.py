from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class StatsConfig(AppConfig):
    name = "stats"
    verbose_name = _("Ratings and statistics")

    def ready(self) -> None:
        # Finished matches feed statistics and the site rating (games.signals.match_finished).
        from stats import record  # noqa: F401
