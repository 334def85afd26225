"""Another URLconf, for ``test_jinja``'s links: ``games:take_seat`` somewhere else."""

from django.urls import include, path

from games import views

games_patterns = ([path("elsewhere/<int:table_id>/", views.take_seat, name="take_seat")], "games")
urlpatterns = [path("", include(games_patterns))]
