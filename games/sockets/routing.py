"""WebSocket routes of the games app."""

from django.urls import path

from games.sockets.consumers import TableConsumer
from games.sockets.lobby_consumer import LobbyConsumer

websocket_urlpatterns = [
    path("ws/table/<int:table_id>/", TableConsumer.as_asgi()),
    path("ws/lobby/", LobbyConsumer.as_asgi()),
]
