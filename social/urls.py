from django.urls import path

from social import views

app_name = "social"
urlpatterns = [
    path("friends/", views.friends_page, name="friends"),
    path("follow/<str:username>/", views.follow, name="follow"),
    path("unfollow/<str:username>/", views.unfollow, name="unfollow"),
    path("tables/<int:table_id>/invite/", views.invite, name="invite"),
    path("invite/", views.invite_any, name="invite_any"),
    path("mute/<int:user_id>/", views.mute, name="mute"),
    path("unmute/<int:user_id>/", views.unmute, name="unmute"),
    path("report/<int:line_id>/", views.report, name="report"),
]
