"""Top-level URL map."""

from django.contrib import admin
from django.urls import include, path

urlpatterns = [
    path("admin/", admin.site.urls),
    path("i18n/", include("django.conf.urls.i18n")),  # set_language, the language switcher
    path("accounts/", include("accounts.urls")),
    path("leagues/", include("leagues.urls")),
    path("tournaments/", include("leagues.tournament_urls")),
    path("", include("games.urls")),
]
