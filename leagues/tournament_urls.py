"""The tournament pages' addresses, under /tournaments/: the public pages
(``leagues.tournament_views``) and the staff's (``leagues.staff_views``)."""

from django.urls import path

from leagues import staff_views, tournament_views

app_name = "tournaments"
urlpatterns = [
    path("", tournament_views.tournament_list, name="list"),
    path("<int:pk>/", tournament_views.tournament_detail, name="detail"),
    path("<int:pk>/register/", tournament_views.register, name="register"),
    path("staff/", staff_views.staff_list, name="staff"),
    path("staff/new/", staff_views.create, name="create"),
    path("<int:pk>/manage/", staff_views.manage, name="manage"),
    path("<int:pk>/manage/options/", staff_views.options, name="options"),
    path("<int:pk>/partner/<int:team_id>/", tournament_views.answer_partner, name="answer_partner"),
    path("<int:pk>/manage/<slug:action>/", staff_views.act, name="act"),
]
