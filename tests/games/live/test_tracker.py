"""The cards a seat has not seen yet (issue #10 item 2): counted from its own view only — its hand
and the cards played this round — for the jokers, the level rank, the 4s and the As; shown to
seats only, and hidden on the page when the player's preference is off."""

from __future__ import annotations

from collections import Counter

from django.urls import reverse
from django.utils import translation

from games.engine import apply
from games.engine.deal import new_match
from games.engine.options import Options
from games.engine.rules import legal_actions
from games.engine.views import seat_view, spectator_view
from games.live.cards import card_face
from games.live.presenters import table_context, unseen_cards
from games.play import services, tables
from tests.games.live.test_frames import in_memory_table


def counts(rows: list[dict]) -> dict[str, int]:
    return {row["face"]: row["left"] for row in rows}


def test_a_fresh_deal_counts_what_the_hand_does_not_hold() -> None:
    options = Options.from_dict({}, players=4)
    state = new_match(options, 7)
    for seat in range(4):
        hand = Counter(state.hands[seat])
        expected = {
            "BJ": 2 - hand["BJ"],
            "RJ": 2 - hand["RJ"],
            "2": 8 - sum(hand[c] for c in hand if c[:-1] == "2"),
            "4": 8 - sum(hand[c] for c in hand if c[:-1] == "4"),
            "A": 8 - sum(hand[c] for c in hand if c[:-1] == "A"),
        }
        rows = unseen_cards(seat_view(state, seat))
        assert counts(rows) == expected, seat
        assert [row["level"] for row in rows] == [False, False, True, False, False]


def faces_left(hand, played, face: str) -> int:
    """What a full deal leaves unseen of one face (two decks): 8 cards, 2 of each joker."""
    total = 2 if face in ("BJ", "RJ") else 8
    held = Counter(c if c in ("BJ", "RJ") else c[:-1] for c in (*hand, *played))
    return total - held[face]


def test_played_cards_are_seen_and_other_hands_never_count() -> None:
    """After a play its cards leave every seat's count; swapping cards between two other
    seats' hands (what this seat cannot see) changes nothing for it."""
    options = Options.from_dict({"claim_window_seconds": 0}, players=4)
    state = new_match(options, 11)
    leader = state.turn
    plays = [a for a in legal_actions(state, leader) if getattr(a, "cards", ())]
    play = max(plays, key=lambda a: (any(c[:-1] in ("A", "4", "2") for c in a.cards), len(a.cards)))
    state = apply(state, play).state
    for seat in range(4):
        rows = counts(unseen_cards(seat_view(state, seat)))
        assert rows == {
            face: faces_left(state.hands[seat], play.cards, face)
            for face in ("BJ", "RJ", "2", "4", "A")
        }, seat
    watcher, other_a, other_b = (leader + 1) % 4, (leader + 2) % 4, (leader + 3) % 4
    swapped = list(state.hands)
    swapped[other_a], swapped[other_b] = state.hands[other_b], state.hands[other_a]
    other = state._replace(hands=tuple(swapped))
    assert unseen_cards(seat_view(other, watcher)) == unseen_cards(seat_view(state, watcher))
    assert unseen_cards(seat_view(other, leader)) == unseen_cards(seat_view(state, leader))


def test_the_level_rank_is_counted_once_when_it_is_4_or_a() -> None:
    options = Options.from_dict({}, players=4)
    state = new_match(options, 3)._replace(level=14)
    rows = unseen_cards(seat_view(state, 0))
    assert [row["face"] for row in rows] == ["BJ", "RJ", "A", "4"]
    assert [row["level"] for row in rows] == [False, False, True, False]


def test_spectators_get_no_tracker_and_seats_get_theirs() -> None:
    table, seats, match = in_memory_table({})
    state = new_match(Options.from_dict({}, players=4), 5)
    with translation.override("en"):
        seat = table_context(table, match, state, 0, seats=seats, recent_moves=[])
        watcher = table_context(table, match, state, None, seats=seats, recent_moves=[])
        assert seat.tracker == unseen_cards(seat_view(state, 0))
    assert watcher.tracker is None and watcher.hand == []
    assert spectator_view(state).hand == ()


def test_the_page_hides_the_tracker_when_the_preference_is_off(client, make_user) -> None:
    ana, bo = make_user("ana"), make_user("bo")
    table = tables.create_table(ana, name="duel", players=2, options={})
    tables.take_seat(table.pk, bo, 1)
    match = tables.start(table.pk, ana, seed=414)
    client.force_login(ana)
    html = client.get(reverse("games:table", args=[table.pk])).content.decode()
    assert 'data-tracker="on"' in html and 'id="tracker"' in html
    assert "Not seen yet:" in html
    ana.card_tracker = False
    ana.save(update_fields=["card_tracker"])
    html = client.get(reverse("games:table", args=[table.pk])).content.decode()
    assert 'data-tracker="off"' in html
    hand = Counter(services.load_state(match).hands[0])
    jokers = 1 - hand["RJ"]  # one deck at a 2-seat table
    assert f'<li class="red{" none" if not jokers else ""}">RJ★ <b>{jokers}</b></li>' in html


def test_the_preference_is_saved_from_the_preferences_page(client, make_user) -> None:
    user = make_user("cara")
    client.force_login(user)
    response = client.post(
        reverse("preferences"), {"language": "", "sound_on": "on", "title_alerts": "on"}
    )
    assert response.status_code in (200, 302)
    user.refresh_from_db()
    assert user.card_tracker is False  # unticked
    client.post(reverse("preferences"), {"language": "", "card_tracker": "on"})
    user.refresh_from_db()
    assert user.card_tracker is True


def test_a_joker_face_names_its_colour_as_the_tracker_does() -> None:
    """A joker's face reads "BJ" or "RJ", as the tracker writes them: its colour is not the only
    difference between the two (WCAG 1.4.1; QA saw two "JK★" told apart by colour alone)."""
    options = Options.from_dict({}, players=4)
    state = new_match(options, 7)
    faces = {card_face(code, state.level).rank for code in ("BJ", "RJ")}
    tracked = {row["face"] for row in unseen_cards(spectator_view(state))}
    assert faces == {"BJ", "RJ"} <= tracked


def test_a_seat_s_tracker_counts_its_hand_from_the_kept_hand_groups() -> None:
    """``table_context`` counts the seat's cards off its kept ``HandGroups`` (their ``counts``):
    the same figures as the cards themselves, after plays, for every seat."""
    table, seats, match = in_memory_table({"claim_window_seconds": 0})
    options = Options.from_dict({"claim_window_seconds": 0}, players=4)
    state = new_match(options, 5)
    played: list[str] = []
    for _ in range(6):
        seat = state.turn
        play = next(a for a in legal_actions(state, seat) if getattr(a, "cards", ()))
        played += play.cards
        state = apply(state, play).state
    assert played
    for seat in range(4):
        context = table_context(table, match, state, seat, seats=seats, recent_moves=[])
        assert counts(context.tracker) == {
            face: faces_left(state.hands[seat], played, face)
            for face in ("BJ", "RJ", "2", "4", "A")
        }, seat
