"""The bot API's schema, its docs page and the guide, served in process (docs/BOT_API.md)."""

from __future__ import annotations

import json

import pytest

pytestmark = pytest.mark.django_db


def test_the_schema_and_the_docs_page_are_served(api):
    schema = api(None).get("/openapi.json")
    assert schema.status_code == 200
    paths = schema.json()["paths"]
    for path in (
        "/api/v1/me",
        "/api/v1/tables",
        "/api/v1/tables/{table_id}/sit",
        "/api/v1/invitations/{invite_code}/accept",
        "/api/v1/matches/{match_id}/view",
        "/api/v1/matches/{match_id}/actions",
        "/api/v1/matches/{match_id}/stream",
    ):
        assert path in paths, path
    docs = api(None).get("/docs")
    assert docs.status_code == 200
    html = docs.content.decode()
    assert "cdn" not in html.lower() and "https://" not in html
    assert "<script>" not in html and "style=" not in html  # nothing inline (the CSP)
    assert "script-src 'self'" in docs["Content-Security-Policy"]
    assert json.loads(schema.content)["info"]["title"] == "414 Club bot API"


def test_the_docs_link_to_the_guide_the_site_serves(api):
    """The schema's description (shown at the top of /api/v1/docs) links the guide, which
    /api/v1/guide serves as plain text with no token."""
    description = api(None).get("/openapi.json").json()["info"]["description"]
    assert "[docs/BOT_API.md](/api/v1/guide)" in description
    guide = api(None).get("/guide")
    assert guide.status_code == 200
    assert guide["Content-Type"] == "text/plain; charset=utf-8"
    assert guide.content.decode().startswith("# The bot API: bring your own bot")
    assert api(None).post("/guide").status_code == 405


def test_the_schema_says_seats_and_teams_count_from_0(openapi):
    """A new user read `{"seat": 1}` as the page's Seat 1 (it is Seat 2): every seat and team
    field of the schema says that it counts from 0 and what the page calls it."""
    schemas = openapi["components"]["schemas"]
    fields = [
        ("SitIn", "seat", "Seat 1"),
        ("SeatOut", "seat", "Seat 1"),
        ("MySeatOut", "seat", "Seat 1"),
        ("TableSeatOut", "number", "Seat 1"),
        ("TableSeatOut", "team", "Team 1"),
        ("SeatViewOut", "winner_team", "Team 1"),
        ("SeatViewOut", "view", "Seat 1"),
        ("RoundReviewOut", "seat", "Seat 1"),
        ("ReviewActionOut", "seat", "Seat 1"),
    ]
    for schema, field, page in fields:
        description = schemas[schema]["properties"][field].get("description", "")
        assert "counting from 0" in description or "counts from 0" in description, (schema, field)
        assert page in description, (schema, field)
