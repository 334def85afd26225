"""The claim window explained where it happens (issue #18 §4, ``games.live.claim_help``): for a
person's first three answered windows the claim bar says what a hook is and which of *their own*
cards they would use; never another seat's cards; an answer counts (through the writer), "Got
it" ends it. The page (a GET) and the pushed snapshot both show it."""

from __future__ import annotations

import re

import pytest
from django.test import Client
from lxml import html as lxml_html
from lxml.html import HtmlElement

from accounts.models import User
from games.engine.deal import start_round
from games.live import push
from games.models import Match, Seat
from games.play import services, tables
from tests.games.conftest import install_state, page

pytestmark = pytest.mark.django_db

#: ana (seat 0) leads a single 9: bo (seat 1) can hook it with 9H 9D; cy (seat 2) holds one 9
#: only; di (seat 3) holds two 9C (RULES.md §6.1).
NINES = [("9S", "KC", "KD"), ("9H", "9D", "5C"), ("9S", "3C", "6D"), ("9C", "9C", "8D")]
CARD_TEXT = re.compile(r"(?:10|[2-9JQKA])[♠♥♦♣]")


def parsed(text: str) -> HtmlElement:
    """A page or a frame (several top-level elements) as one tree."""
    return lxml_html.fragment_fromstring(text, create_parent="div")


def by_id(tree: HtmlElement, element_id: str) -> HtmlElement | None:
    found = tree.xpath(f'.//*[@id="{element_id}"]')
    return found[0] if found else None


def classes(element: HtmlElement) -> list[str]:
    return element.get("class", "").split()


@pytest.fixture
def window(make_table):
    """ana has led her 9: the hook window is open for bo, cy and di."""
    table = make_table(["ana", "bo", "cy", "di"], {"claim_window_seconds": 60, "turn_seconds": 300})
    match = tables.start(table.pk, table.host, seed=2)
    install_state(match, start_round(table.engine_options(), NINES, 2, leader=0, seed=2))
    people = {s.number: s.user for s in Seat.objects.filter(table=table).select_related("user")}
    version = Match.objects.get(pk=match.pk).version
    assert services.submit(
        match.pk, people[0], {"version": version, "action": "play", "cards": ["9S"]}
    ).ok
    return table, match, people


def shown(table, seat: int | None, user) -> list[HtmlElement]:
    """What ``user`` is shown at ``seat`` (None: as a spectator): the table page and the
    pushed snapshot, parsed."""
    client = Client()
    client.force_login(user)
    frame, _, _ = push.snapshot(table.pk, seat, User.objects.get(pk=user.pk), "en")
    return [parsed(html) for html in (page(client, table), frame)]


def helps(table, seat: int, user) -> list:
    """The seat's claim help on its table page and in its pushed snapshot (None where absent)."""
    return [by_id(tree, "claim-help") for tree in shown(table, seat, user)]


def explained(user, count: int) -> None:
    User.objects.filter(pk=user.pk).update(claim_windows_explained=count)


def test_the_help_is_shown_for_the_first_three_windows_only(window):
    table, match, people = window
    bo = people[1]
    for count in (0, 1, 2):
        explained(bo, count)
        for help in helps(table, 1, bo):
            assert help is not None, count
            assert "What is a hook?" in help.text_content()
    explained(bo, 3)
    assert helps(table, 1, bo) == [None, None]


def test_it_names_only_the_viewers_own_cards(window):
    table, match, people = window
    for help in helps(table, 1, people[1]):
        assert by_id(help, "claim-help-yours").text_content() == ("You can hook with your 9♥ 9♦.")
        assert set(CARD_TEXT.findall(help.text_content())) <= {"9♥", "9♦", "5♣"}
    for help in helps(table, 2, people[2]):  # cy holds one 9: nothing to hook with
        assert by_id(help, "claim-help-yours").text_content() == (
            "You hold no pair of 9: pass, or let the time run out."
        )
        assert CARD_TEXT.findall(help.text_content()) == []  # not di's 9♣ 9♣, not bo's pair
    assert helps(table, 0, people[0]) == [None, None]  # the owner cannot answer her own card


def test_an_answer_counts_and_got_it_ends_the_help(window):
    table, match, people = window
    bo, cy = people[1], people[2]
    version = Match.objects.get(pk=match.pk).version
    assert services.submit(match.pk, bo, {"version": version, "action": "pass"}).ok
    bo.refresh_from_db()
    assert bo.claim_windows_explained == 1
    client = Client()
    client.force_login(cy)
    response = client.post("/tables/claim-help/done/", headers={"HX-Request": "true"})
    assert response.status_code == 200 and response.content == b""
    cy.refresh_from_db()
    assert cy.claim_windows_explained == 3
    assert helps(table, 2, cy) == [None, None]
    plain = client.post("/tables/claim-help/done/", headers={"Referer": "http://evil.example/"})
    assert plain.status_code == 302 and plain["Location"] == "/"


def test_the_claim_bar_asks_those_who_may_answer_and_tells_the_owner_and_spectators(window):
    """Only a seat that may answer is asked ("Hook ana's 9?"); the seat whose 9 it is is told
    its card can be hooked (a question there asked her to hook her own card), a spectator
    reads the window as a fact. The page and the pushed snapshot alike."""
    table, match, people = window
    spectator = User.objects.create_user("watcher")
    titles = {}
    for seat, user in ((0, people[0]), (1, people[1]), (None, spectator)):
        seen = {
            by_id(tree, "claim-bar").xpath('.//*[@class="claim-title"]')[0].text_content()
            for tree in shown(table, seat, user)
        }
        assert len(seen) == 1, seen  # the page and the snapshot alike
        titles[seat] = seen.pop()
    assert titles == {
        0: "Your 9 can be hooked",
        1: "Hook ana's 9?",
        None: "ana's 9 can be hooked",
    }
