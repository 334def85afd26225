from django.urls import path

from games import views
from games.records import views as history_views

app_name = "games"
urlpatterns = [
    path("", views.lobby, name="lobby"),
    path("lobby/lists/", views.lobby_lists, name="lobby_lists"),
    path("tables/new/", views.create_table, name="create_table"),
    path("tables/join/<str:invite_code>/", views.join_invite, name="join"),
    path("tables/<int:table_id>/", views.table_page, name="table"),
    path("tables/<int:table_id>/take/", views.take_seat, name="take_seat"),
    path("tables/<int:table_id>/leave/", views.leave_seat, name="leave_seat"),
    path("tables/<int:table_id>/ai/", views.set_ai, name="set_ai"),
    path("tables/<int:table_id>/fill/", views.fill_with_ai, name="fill_with_ai"),
    path("tables/<int:table_id>/start/", views.start, name="start"),
    path("tables/<int:table_id>/close/", views.close_table, name="close_table"),
    path("tables/<int:table_id>/seat/", views.seat_control, name="seat_control"),
    path("tables/<int:table_id>/rematch/", views.rematch, name="rematch"),
    path("tables/again/", views.play_again, name="play_again"),
    path("tables/computer/", views.play_computer, name="play_computer"),
    path("tables/claim-help/done/", views.claim_help_done, name="claim_help_done"),
    path("matches/<int:match_id>/", history_views.match_record, name="match_record"),
    path("matches/<int:match_id>/replay/", history_views.match_replay, name="match_replay"),
    path("matches/<int:match_id>/export.json", history_views.match_export, name="match_export"),
    path("players/<str:username>/matches/", history_views.player_matches, name="player_matches"),
]
