"""The bare floor: a minimal Channels app with the site's channel layer and nothing else.

``/ws/bare/<table>/`` joins the group ``bare-<table>`` and, on connect, sends a full frame at
version 0. A message ``{"v": 7, "size": 15000}`` from any socket is broadcast to the group
(one ``group_send``) and every member sends a frame of ``size`` bytes carrying version 7 in the
same header the app uses (``<!--frame {"v": 7, "b": 6, "r": 0, "full": false}-->``), so the
load client measures both the same way. Heartbeats are read and ignored. No database, no
rendering: what is left is Daphne, the Origin check, the consumer and
``channels_redis.pubsub.RedisPubSubChannelLayer`` as ``config/settings.py`` configures it.

    daphne -b 127.0.0.1 -p 8200 bare_app:application    # with bench/ on PYTHONPATH
"""

from __future__ import annotations

import json
import os

import django

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
django.setup()  # settings (CHANNEL_LAYERS, ALLOWED_HOSTS); no model is used

from channels.generic.websocket import AsyncWebsocketConsumer  # noqa: E402
from channels.routing import ProtocolTypeRouter, URLRouter  # noqa: E402
from channels.security.websocket import AllowedHostsOriginValidator  # noqa: E402
from django.urls import path  # noqa: E402

PADDING = "x" * (1 << 20)
MAX_SIZE = len(PADDING)


def frame(version: int, size: int, full: bool = False) -> str:
    fields = {"v": version, "r": 0, "full": full}
    if not full:
        fields["b"] = version - 1
    head = f"<!--frame {json.dumps(fields, separators=(',', ':'))}-->"
    return head + PADDING[: max(0, min(size, MAX_SIZE) - len(head))]


class BareConsumer(AsyncWebsocketConsumer):
    async def connect(self) -> None:
        self.group = f"bare-{int(self.scope['url_route']['kwargs']['table'])}"
        await self.channel_layer.group_add(self.group, self.channel_name)
        await self.accept()
        await self.send(text_data=frame(0, 200, full=True))

    async def disconnect(self, code: int) -> None:
        await self.channel_layer.group_discard(self.group, self.channel_name)

    async def receive(self, text_data: str | None = None, bytes_data: bytes | None = None) -> None:
        try:
            data = json.loads(text_data or "")
        except ValueError:
            return
        if not isinstance(data, dict) or "heartbeat" in data:
            return
        await self.channel_layer.group_send(
            self.group,
            {"type": "bare.frame", "v": int(data.get("v", 0)), "size": int(data.get("size", 0))},
        )

    async def bare_frame(self, event: dict) -> None:
        await self.send(text_data=frame(event["v"], event["size"]))


application = ProtocolTypeRouter(
    {
        "websocket": AllowedHostsOriginValidator(
            URLRouter(
                [
                    path("ws/bare/<int:table>/", BareConsumer.as_asgi()),
                ]
            )
        ),
    }
)
