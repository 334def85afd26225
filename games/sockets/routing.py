"""WebSocket routes of the games app."""

from django.urls import path

from games.sockets.consumers import TableConsumer
from games.sockets.lobby_consumer import LobbyConsumer

# Channels' URLRouter routes django.urls.path() patterns to ASGI applications (its documented
# way); django-stubs types path()'s target as a Django view, hence the two ignores.
websocket_urlpatterns = [
    path("ws/table/<int:table_id>/", TableConsumer.as_asgi()),  # type: ignore[arg-type]
    path("ws/lobby/", LobbyConsumer.as_asgi()),  # type: ignore[arg-type]
]
