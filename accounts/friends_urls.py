"""The friends pages, under /social/ (config/urls.py): follows, invitations to a table."""

from django.urls import path

from accounts import friends_views

app_name = "friends"
urlpatterns = [
    path("friends/", friends_views.friends_page, name="friends"),
    path("follow/<str:username>/", friends_views.follow, name="follow"),
    path("unfollow/<str:username>/", friends_views.unfollow, name="unfollow"),
    path("tables/<int:table_id>/invite/", friends_views.invite, name="invite"),
    path("invite/", friends_views.invite_any, name="invite_any"),
]
