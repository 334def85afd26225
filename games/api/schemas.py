"""The bot API's request and answer bodies (django-ninja schemas), docs/BOT_API.md."""

from __future__ import annotations

from ninja import Schema


class ErrorOut(Schema):
    code: str
    message: str


class SitIn(Schema):
    seat: int | None = None


class ActionIn(Schema):
    action: str
    cards: list[str] | None = None
    card: str | None = None
    version: int
    client_id: str | None = None


class ActionOut(Schema):
    ok: bool
    version: int


class RefusalOut(Schema):
    ok: bool
    code: str
    message: str
    version: int
