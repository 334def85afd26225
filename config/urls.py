"""Top-level URL map."""

from django.contrib import admin
from django.urls import include, path, re_path

from accounts.views import set_language
from config.views import favicon, rules
from games.api import api as bot_api
from games.api.errors import unknown_path as bot_unknown_path
from games.api.guide import guide as bot_guide
from games.api.stream import stream as bot_stream

urlpatterns = [
    path("admin/", admin.site.urls),
    # The language switcher: Django's set_language, which also saves a player's choice.
    path("i18n/setlang/", set_language, name="set_language"),
    path("rules/", rules, name="rules"),
    path("favicon.ico", favicon, name="favicon"),
    # The stream first: the API's own entry for this path only documents it (games.api.endpoints).
    path("api/v1/matches/<int:match_id>/stream", bot_stream, name="botapi_stream"),
    path("api/v1/guide", bot_guide, name="botapi_guide"),
    path("api/v1/", bot_api.urls),
    # What the API does not serve answers in its JSON error shape, not the site's HTML 404.
    re_path(r"^api/v1/", bot_unknown_path),
    path("accounts/", include("accounts.urls")),
    path("leagues/", include("leagues.urls")),
    path("tournaments/", include("leagues.tournament_urls")),
    # The table chat's actions and the friends pages keep their /social/ addresses.
    path("social/", include("games.chat.urls")),
    path("social/", include("accounts.friends_urls")),
    path("leaderboard/", include("leagues.leaderboard_urls")),
    path("", include("games.urls")),
]
