"""The league pages' addresses, under /leagues/ (``leagues.views``, ``leagues.organiser_views``)."""

from django.urls import path

from leagues import organiser_views, views

app_name = "leagues"
urlpatterns = [
    path("", views.league_list, name="list"),
    path("new/", views.league_create, name="create"),
    path("notices/", views.notices, name="notices"),
    path("<slug:slug>/", views.league_detail, name="detail"),
    path("<slug:slug>/join/", views.join, name="join"),
    path("<slug:slug>/leave/", views.leave, name="leave"),
    path("<slug:slug>/seasons/<int:season_id>/", views.season_detail, name="season"),
    path(
        "<slug:slug>/seasons/<int:season_id>/options/",
        organiser_views.season_options,
        name="season_options",
    ),
    path("<slug:slug>/players/<str:username>/", views.player, name="player"),
    path("<slug:slug>/fixtures/new/", organiser_views.fixture_create, name="fixture_create"),
    path(
        "<slug:slug>/fixtures/<int:fixture_id>/start/",
        organiser_views.fixture_start,
        name="fixture_start",
    ),
    path("<slug:slug>/manage/", organiser_views.manage, name="manage"),
    path("<slug:slug>/manage/options/", organiser_views.league_options, name="options"),
    path("<slug:slug>/manage/bots/", organiser_views.league_bots, name="bots"),
    path("<slug:slug>/manage/members/", organiser_views.manage_members, name="manage_members"),
    path("<slug:slug>/manage/season/", organiser_views.manage_season, name="manage_season"),
    path(
        "<slug:slug>/manage/round-robin/",
        organiser_views.manage_round_robin,
        name="manage_round_robin",
    ),
    path("<slug:slug>/manage/result/", organiser_views.manage_result, name="manage_result"),
]
