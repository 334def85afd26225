from django.apps import AppConfig


class SocialConfig(AppConfig):
    """Table chat, friends (follows, presence, invitations) and the turn notices."""

    default_auto_field = "django.db.models.BigAutoField"
    name = "social"
