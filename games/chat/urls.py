"""The table chat's actions, under /social/ (config/urls.py): mute, unmute, report a line."""

from django.urls import path

from games.chat import views as chat_views

app_name = "chat"
urlpatterns = [
    path("mute/<int:user_id>/", chat_views.mute, name="mute"),
    path("unmute/<int:user_id>/", chat_views.unmute, name="unmute"),
    path("report/<int:line_id>/", chat_views.report, name="report"),
]
