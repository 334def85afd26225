"""The record of a match still on: what a spectator may see, and nothing more.

While a match is on, its record shows only what a spectator sees (a pending claim's cards,
the hands and a delayed table's latest moves stay hidden), and the replay and the export
refuse. (The finished match's record, replay and export: test_history.py.)
"""

from __future__ import annotations

import re

import pytest
from django.urls import reverse

from games.engine.deal import start_round
from games.live.cards import card_text
from games.models import Match, Seat
from games.play import services, stewarding, tables
from tests.games.conftest import install_state
from tests.games.records.matches import client_for, play_moves

pytestmark = pytest.mark.django_db

CARD_ATTR = re.compile(r'data-card="([^"]+)"')
ROW = re.compile(r"<tr[^>]*>(.*?)</tr>", re.S)
CELL = re.compile(r"<td[^>]*>(.*?)</td>", re.S)
TAG = re.compile(r"<[^>]+>")


def move_rows(page: str) -> list[tuple[str, str]]:
    """The record's moves table as (By, What happened) pairs, one per row, tags stripped."""
    table = page.split('id="record-moves"')[1]
    rows = [[TAG.sub("", c).strip() for c in CELL.findall(r)] for r in ROW.findall(table)]
    return [(r[2], r[3]) for r in rows if len(r) == 4]


# --- a live match leaks nothing ----------------------------------------------------------------

HANDS = [
    ("3S", "9H", "9C", "KD"),
    ("9D", "5H", "6H", "QC"),
    ("JS", "JH", "7D", "8D"),
    ("4C", "4D", "10S", "2C"),
]


@pytest.fixture
def live_with_pending_claim(make_table) -> Match:
    """bo (seat 1) played 9D; ana (seat 0) hooked with 9H 9C, pending: seats 2 and 3 are nearer
    the owner and have not answered (§6.3, §6.4)."""
    table = make_table(["ana", "bo", "cy", "di"], {"claim_window_seconds": 60, "turn_seconds": 300})
    match = tables.start(table.pk, table.host, seed=2)
    install_state(match, start_round(table.engine_options(), HANDS, 2, leader=1, seed=2))
    seat = {s.number: s.user for s in Seat.objects.filter(table=table)}
    assert services.submit(match.pk, seat[1], {"action": "play", "cards": ["9D"], "version": 0}).ok
    assert services.submit(
        match.pk, seat[0], {"action": "hook", "cards": ["9H", "9C"], "version": 1}
    ).ok
    return Match.objects.get(pk=match.pk)


def test_a_live_record_shows_what_a_spectator_sees(live_with_pending_claim, make_user):
    """To a spectator and to the players alike, the record of a live match names only the card
    played (9D): not the pending hook's cards, not any hand."""
    match = live_with_pending_claim
    url = reverse("games:match_record", args=[match.pk])
    hidden = {c for h in HANDS for c in h} - {"9D"}
    for user in (None, make_user("watcher"), match.table.seats.get(number=0).user):
        response = client_for(user).get(url)
        assert response.status_code == 200
        page = response.content.decode()
        assert "still being played" in page
        assert card_text("9D") in page
        assert "answered the claim window" in page
        shown = {c for c in hidden if card_text(c) in page}
        assert shown == set(), shown
        assert 'id="record-replay-link"' not in page


def test_a_claim_settled_by_another_answer_is_shown_under_its_claimer(
    live_with_pending_claim,
) -> None:
    """di's pass settles the window in favour of ana's hook (§6.3): the record shows di's answer
    under di and the hook under ana, on a row of its own — not "di answered the claim window;
    ana hooked with …" on di's row, which read as di hooking."""
    match = live_with_pending_claim
    seat = {s.number: s.user for s in Seat.objects.filter(table=match.table)}
    assert services.submit(match.pk, seat[2], {"action": "pass", "version": 2}).ok
    assert services.submit(match.pk, seat[3], {"action": "pass", "version": 3}).ok
    page = client_for().get(reverse("games:match_record", args=[match.pk])).content.decode()
    hook = f"ana hooked with {card_text('9H')} {card_text('9C')}"
    assert move_rows(page) == [
        ("bo", f"bo played {card_text('9D')}"),
        ("ana", "ana answered the claim window"),
        ("cy", "cy answered the claim window"),
        ("di", "di answered the claim window"),
        ("ana", hook),
    ]
    assert page.count('<tr id="move-') == 4  # the hook's row is part of move 4, not a move


def test_replay_and_export_of_a_live_match_are_refused(live_with_pending_claim) -> None:
    """409 with a message saying why, and not a card in either answer."""
    match = live_with_pending_claim
    client = client_for()
    response = client.get(reverse("games:match_replay", args=[match.pk]), {"step": 1})
    assert response.status_code == 409
    page = response.content.decode()
    assert "still being played" in page and not CARD_ATTR.findall(page)
    response = client.get(reverse("games:match_export", args=[match.pk]))
    assert response.status_code == 409
    assert response.json()["error"] == "match_not_finished"
    assert "9H" not in response.content.decode()


def test_a_stopped_match_keeps_its_hands_private(live_with_pending_claim) -> None:
    """A forfeited (abandoned) match never ends: no replay, no export, a record without hands."""
    match = live_with_pending_claim
    stewarding.abandon(match.table_id)
    client = client_for()
    response = client.get(reverse("games:match_replay", args=[match.pk]))
    assert response.status_code == 409 and "stopped" in response.content.decode()
    assert client.get(reverse("games:match_export", args=[match.pk])).status_code == 409
    page = client.get(reverse("games:match_record", args=[match.pk])).content.decode()
    assert card_text("9H") not in page


def test_a_delayed_record_stops_where_spectators_are(make_table, make_user) -> None:
    """With spectator_delay 2, a spectator's record lists the moves up to version − 2; a
    seated player's lists them all (nothing hidden: answers are filtered for both). A match
    still on is rendered for each viewer, never from the cache a finished record uses."""
    table = make_table(["ana", "bo", "cy", "di"], {"claim_window_seconds": 0, "turn_seconds": 300})
    table.spectator_delay = 2
    table.save()
    match = tables.start(table.pk, table.host, seed=5)
    play_moves(match, 4)
    url = reverse("games:match_record", args=[match.pk])
    page = client_for(make_user("watcher")).get(url).content.decode()
    assert page.count('<tr id="move-') == 2 and "2 plays late" in page
    page = client_for(table.host).get(url).content.decode()
    assert page.count('<tr id="move-') == 4


def test_a_live_match_is_linked_to_its_record_from_the_profile(live_with_pending_claim):
    """A match still on links its record (what spectators see) but not a replay."""
    match = live_with_pending_claim
    profile = client_for().get(reverse("profile", args=["ana"])).content.decode()
    assert reverse("games:match_record", args=[match.pk]) in profile
    assert reverse("games:match_replay", args=[match.pk]) not in profile
