"""URLs under /accounts/: Django's auth views, then ours; a profile is /accounts/<username>/."""

from django.contrib.auth import views as auth_views
from django.urls import path

from accounts import bot_views, views

urlpatterns = [
    path("signup/", views.signup, name="signup"),
    path("login/", views.PlayerLoginView.as_view(), name="login"),
    path("logout/", auth_views.LogoutView.as_view(), name="logout"),
    path("password_change/", auth_views.PasswordChangeView.as_view(), name="password_change"),
    path(
        "password_change/done/",
        auth_views.PasswordChangeDoneView.as_view(),
        name="password_change_done",
    ),
    path("password_reset/", auth_views.PasswordResetView.as_view(), name="password_reset"),
    path(
        "password_reset/done/",
        auth_views.PasswordResetDoneView.as_view(),
        name="password_reset_done",
    ),
    path(
        "reset/<uidb64>/<token>/",
        auth_views.PasswordResetConfirmView.as_view(),
        name="password_reset_confirm",
    ),
    path(
        "reset/done/",
        auth_views.PasswordResetCompleteView.as_view(),
        name="password_reset_complete",
    ),
    path("preferences/", views.preferences, name="preferences"),
    path("tokens/new/", bot_views.create_token, name="botapi_create_token"),
    path("tokens/<int:pk>/revoke/", bot_views.revoke_token, name="botapi_revoke_token"),
    path("bot/", bot_views.set_bot, name="botapi_set_bot"),
    # Last, so the fixed pages above win; forms.RESERVED_USERNAMES keeps them apart.
    path("<str:username>/", views.profile, name="profile"),
]
