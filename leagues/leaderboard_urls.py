"""The leaderboard's address, /leaderboard/ (``leagues.leaderboard_views``)."""

from django.urls import path

from leagues import leaderboard_views

app_name = "leaderboard"
urlpatterns = [
    path("", leaderboard_views.leaderboard, name="index"),
]
