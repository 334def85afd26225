"""Top-level URL map."""

from django.contrib import admin
from django.urls import include, path

from accounts.views import set_language
from config.views import rules

urlpatterns = [
    path("admin/", admin.site.urls),
    # The language switcher: Django's set_language, which also saves a player's choice.
    path("i18n/setlang/", set_language, name="set_language"),
    path("rules/", rules, name="rules"),
    path("accounts/", include("accounts.urls")),
    path("leagues/", include("leagues.urls")),
    path("tournaments/", include("leagues.tournament_urls")),
    path("leaderboard/", include("leagues.leaderboard_urls")),
    path("", include("games.urls")),
]
