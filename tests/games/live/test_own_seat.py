"""While the AI stands in for a seat, its person's page offers no move of theirs (issue #18 §2,
``games.live.own_seat``): no "Your turn", no claim buttons (so no "Press K to claim or P to pass"
line, which table.js speaks only for a claim form), no hints or Pass; the page says "The AI is
playing for you" and offers "I'm back". The stand-in is asked for through the real path
(``standins.control``, as the seat menu's button sends it); the page (a GET) and the pushed
snapshot (``push.snapshot``) are both checked."""

from __future__ import annotations

import pytest
from django.test import Client
from lxml import html as lxml_html
from lxml.html import HtmlElement

from games.engine.deal import start_round
from games.live import push
from games.models import Match, Seat
from games.play import services, standins, tables
from tests.conftest import PASSWORD
from tests.games.conftest import install_state, page

pytestmark = pytest.mark.django_db

#: Seat 0 leads a single 9: seat 1 can hook it with 9H 9D (RULES.md §6.1).
NINES = [("9S", "KC", "KD"), ("9H", "9D", "5C"), ("9S", "3C", "6D"), ("9C", "9C", "8D")]


def parsed(text: str) -> HtmlElement:
    """A page or a frame (several top-level elements) as one tree."""
    return lxml_html.fragment_fromstring(text, create_parent="div")


def by_id(tree: HtmlElement, element_id: str) -> HtmlElement | None:
    found = tree.xpath(f'.//*[@id="{element_id}"]')
    return found[0] if found else None


def classes(element: HtmlElement) -> list[str]:
    return element.get("class", "").split()


@pytest.fixture
def nines(make_table):
    table = make_table(["ana", "bo", "cy", "di"], {"claim_window_seconds": 60, "turn_seconds": 300})
    match = tables.start(table.pk, table.host, seed=2)
    install_state(match, start_round(table.engine_options(), NINES, 2, leader=0, seed=2))
    people = {s.number: s.user for s in Seat.objects.filter(table=table).select_related("user")}
    return table, match, people


def client_of(user) -> Client:
    client = Client()
    assert client.login(username=user.username, password=PASSWORD)
    return client


def stand_in(match: Match, user) -> None:
    seq = Seat.objects.get(table_id=match.table_id, user=user).stand_in_seq
    assert standins.control(match.pk, user, {"action": "stand_in", "stand_in_seq": seq}).ok


def screens(table, seat: int, user) -> list[HtmlElement]:
    """The seat's table page and its pushed full frame, parsed."""
    frame, _, _ = push.snapshot(table.pk, seat, user, "en")
    return [
        parsed(page(client_of(user), table)),
        parsed(frame),
    ]


def test_no_turn_of_mine_while_the_ai_plays_for_me(nines):
    table, match, people = nines
    ana = people[0]
    for html in screens(table, 0, ana):  # ana leads: her turn, before the stand-in
        assert "my-turn" in classes(by_id(html, "status"))
    stand_in(match, ana)
    for html in screens(table, 0, ana):
        status = by_id(html, "status")
        assert "my-turn" not in classes(status)
        assert "Your turn" not in status.text_content()
        assert "The AI is playing for you" in status.text_content()
        assert by_id(html, "pass-button") is None
        assert by_id(html, "hand-actions").get("data-hints") == "[]"
        banner = by_id(html, "stand-in-banner")
        assert "The AI is playing for you" in banner.text_content()
        assert by_id(html, "im-back") is not None


def test_no_claim_buttons_while_the_ai_answers_for_me(nines):
    table, match, people = nines
    ana, bo = people[0], people[1]
    version = Match.objects.get(pk=match.pk).version
    assert services.submit(
        match.pk, ana, {"version": version, "action": "play", "cards": ["9S"]}
    ).ok
    for html in screens(table, 1, bo):  # bo may hook ana's 9, before the stand-in
        assert html.xpath('.//*[@id="claim-form"]//*[@id="claim-button" and not(@disabled)]')
    stand_in(match, bo)
    for html in screens(table, 1, bo):
        bar = by_id(html, "claim-bar")
        assert bar is not None and "can-answer" not in classes(bar)
        assert by_id(html, "claim-form") is None
        assert by_id(html, "claim-button") is None
        assert by_id(html, "claim-pass-button") is None
        assert by_id(html, "im-back") is not None
