"""Match history: the record page, the replay and the JSON export (docs/MATCH_FORMAT.md).

A finished match is driven to its end in-process through ``games.play.services`` (AI seats act, the
clock is rung for the one person who never moves), then replayed from ``new_match(options,
seed)`` and the moves: the replay must land exactly on the recorded final state. (A match still
on: test_live_records.py.)
"""

from __future__ import annotations

import json
import re
from pathlib import Path

import jsonschema
import pytest
from django.core.cache import cache
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from games.engine import apply, new_match
from games.engine.codec import action_from_json, state_to_json
from games.engine.options import Options
from games.live import replay
from games.live.cards import card_text
from games.models import Match, Move, Round, Seat, TributeRecord
from games.play import services, stewarding
from games.records import history
from tests.games.records.matches import client_for

#: One worker drives the module's finished match once (conftest.py): the record page's tests
#: are here too (each module drives a match of its own, some 16 s of CPU).
pytestmark = [
    pytest.mark.django_db,
    pytest.mark.xdist_group("records-history"),
    pytest.mark.slow,  # the finished match is driven move by move
]

ROOT = Path(__file__).resolve().parents[3]
SCHEMA = json.loads((ROOT / "docs" / "match_format.schema.json").read_text())
CARD_ATTR = re.compile(r'data-card="([^"]+)"')

# --- replay ------------------------------------------------------------------------------------


def test_a_replay_reproduces_the_recorded_final_state(finished_match) -> None:
    """Replaying every logged action from new_match(options, seed) gives the stored final state
    exactly, through the cached path and through a plain fold alike."""
    match = finished_match
    assert match.winner_team is not None and match.round_no >= 2
    stored = services.load_state(match)
    state = new_match(Options.from_dict(match.state["options"]), match.seed)
    for seq, action in Move.objects.filter(match=match).values_list("seq", "action"):
        outcome = apply(state, action_from_json(action))
        assert outcome.state.version == seq
        state = outcome.state
    assert state == stored
    assert state_to_json(state) == match.state
    cache.clear()
    assert replay.state_at(match, match.version) == stored
    assert list(replay.replay_all(match))[-1][1] == stored


def test_states_at_any_version_agree_cold_or_cached(finished_match) -> None:
    """state_at(v) is the same from checkpoints, from v - 1, or from the deal."""
    match = finished_match
    versions = [0, 1, 49, 50, 51, match.version // 2, match.version - 1, match.version]
    cache.clear()
    cold = {v: replay.state_at(match, v) for v in versions}
    for v in versions:
        cache.clear()
        assert replay.state_at(match, v) == cold[v]
        assert replay.state_at(match, v) == cold[v]  # now from the cache
    folded = {0: replay.initial_state(match)}
    for move, state in replay.replay_all(match):
        folded[move.seq] = state
    assert all(cold[v] == folded[v] for v in versions)
    with pytest.raises(ValueError):
        replay.state_at(match, match.version + 1)


def test_a_broken_log_is_reported_not_replayed(finished_match) -> None:
    """An action the engine refuses on replay raises ReplayError (never a wrong state)."""
    match = finished_match
    move = Move.objects.filter(match=match, action__type="play").order_by("seq").first()
    Move.objects.filter(pk=move.pk).update(action={**move.action, "cards": ["RJ", "RJ", "RJ"]})
    cache.clear()
    with pytest.raises(replay.ReplayError):
        replay.state_at(match, move.seq)


# --- the replay page ---------------------------------------------------------------------------


def hands_section(page: str) -> str:
    return page.split('id="replay-hands"', 1)[1].split("</section>", 1)[0]


def test_the_replay_steps_through_the_match_with_any_seat_or_every_hand(finished_match):
    """Step N shows the state after move N: every hand, or one seat's hand only; htmx gets the
    board alone; out-of-range steps are clamped."""
    match = finished_match
    url = reverse("games:match_replay", args=[match.pk])
    client = client_for()
    start = replay.initial_state(match)
    page = client.get(url).content.decode()
    assert "Move 0 of" in page and 'id="replay-next"' in page
    assert sorted(CARD_ATTR.findall(hands_section(page))) == sorted(
        c for h in start.hands for c in h
    )

    step = match.version // 2
    state = replay.state_at(match, step)
    page = client.get(url, {"step": step, "seat": 1}).content.decode()
    assert sorted(CARD_ATTR.findall(hands_section(page))) == sorted(state.hands[1])
    assert f"Move {step} of {match.version}" in page
    move = Move.objects.get(match=match, seq=step)
    assert f"<strong>#{move.seq}</strong>" in page

    board = client.get(url, {"step": step, "seat": "all"}, HTTP_HX_REQUEST="true")
    text = board.content.decode()
    assert "<html" not in text and text.lstrip().startswith('<div id="replay"')
    assert len(CARD_ATTR.findall(hands_section(text))) == sum(len(h) for h in state.hands)

    for bad in ("²", "-1", "abc", "9" * 5000):  # any seat Python cannot read: every hand
        assert client.get(url, {"step": bad, "seat": bad}).status_code == 200, bad

    last = client.get(url, {"step": 10**6}).content.decode()
    assert f"Move {match.version} of {match.version}" in last
    assert 'id="replay-next" aria-disabled="true"' in last
    assert "wins the match" in last


# --- the export --------------------------------------------------------------------------------


def test_the_export_matches_the_documented_format_and_replays(finished_match) -> None:
    """export.json validates against docs/match_format.schema.json, and the exported seed,
    options and actions alone rebuild the final state (the deal hands included)."""
    match = finished_match
    response = client_for().get(reverse("games:match_export", args=[match.pk]))
    assert response.status_code == 200 and response["Content-Type"] == "application/json"
    data = response.json()
    jsonschema.validate(data, SCHEMA)
    assert (data["format"], data["version"]) == ("414club-match", 1)
    assert len(data["moves"]) == match.version == data["match"]["final_version"]
    assert [m["seq"] for m in data["moves"]] == list(range(1, match.version + 1))
    assert len(data["rounds"]) == match.round_no
    assert data["players"][3] == {
        "seat": 3,
        "team": 1,
        "name": "cy",
        "user": "cy",
        "ai_policy": None,
    }
    state = new_match(Options.from_dict(data["options"]), data["match"]["seed"])
    assert [list(h) for h in state.hands] == data["rounds"][0]["hands"]
    for move in data["moves"]:
        state = apply(state, action_from_json(move["action"])).state
        if move["action"]["type"] == "next_round":
            assert [list(h) for h in state.hands] == data["rounds"][state.round_no - 1]["hands"]
    assert state == services.load_state(match)
    assert data["match"]["winner_team"] == match.winner_team


# --- where matches are listed, they link to their record --------------------------------------


def test_a_finished_match_is_linked_from_its_table_the_lobby_and_the_profiles(finished_match):
    """The table page of a finished match, the lobby's recently finished list and the players'
    profiles link the record and the replay."""
    match = finished_match
    record = reverse("games:match_record", args=[match.pk])
    replay_url = reverse("games:match_replay", args=[match.pk])
    client = client_for()
    table_page = client.get(reverse("games:table", args=[match.table_id])).content.decode()
    assert f'href="{replay_url}" id="replay-link"' in table_page
    assert f'href="{record}" id="record-link"' in table_page
    lobby = client.get(reverse("games:lobby")).content.decode()
    assert 'id="finished-tables"' in lobby and record in lobby and replay_url in lobby
    assert "ana &amp; bo beat AI 2 &amp; cy" in lobby
    profile = client.get(reverse("profile", args=["cy"])).content.decode()
    assert record in profile and replay_url in profile


def test_a_players_matches_page_lists_every_match_with_its_links(finished_match, make_user):
    """/players/<name>/matches/: each match with partners, opponents, result and links; a
    private table the viewer may not watch is left out; the profile links the page."""
    match = finished_match
    client = client_for()
    profile = client.get(reverse("profile", args=["ana"])).content.decode()
    url = reverse("games:player_matches", args=["ana"])
    assert f'href="{url}" id="all-matches-link"' in profile
    page = client.get(url).content.decode()
    row = page.split(f'id="player-match-{match.pk}"', 1)[1].split("</tr>", 1)[0]
    assert "bo" in row and "AI 2, cy" in row
    assert ("won" if match.winner_team == 0 else "lost") in row
    assert reverse("games:match_replay", args=[match.pk]) in row
    ana, zed = match.table.seats.get(number=0).user, make_user("zed")
    secret = stewarding.open_table(
        zed,
        name="secret",
        options={},
        start=True,
        seed=3,
        visibility="private",
        seats=[(ana, ""), (zed, ""), (None, "random"), (None, "random")],
    )
    secret_match = Match.objects.get(table=secret)
    assert f'id="player-match-{secret_match.pk}"' not in client.get(url).content.decode()
    mine = client_for(secret.host).get(url).content.decode()
    assert f'id="player-match-{secret_match.pk}"' in mine and "playing, round 1" in mine
    assert client.get(reverse("games:player_matches", args=["nobody"])).status_code == 404


def test_the_replay_shows_a_person_at_their_seat_not_a_later_stand_in(finished_match) -> None:
    """A stand-in (the AI playing for an away person) is the live table's state: the replay
    shows the seat as dealt, at every step, and nothing is written."""
    match = finished_match
    Seat.objects.filter(table=match.table, number=3).update(stand_in="away", ai_policy="expert")
    url = reverse("games:match_replay", args=[match.pk])
    for step in (0, match.version):
        page = client_for().get(url, {"step": step}).content.decode()
        assert 'id="stand-in-3"' not in page, step
        assert "cy" in page
    seat = Seat.objects.get(table=match.table, number=3)
    assert (seat.stand_in, seat.ai_policy) == ("away", "expert")


# --- the record page ----------------------------------------------------------------------
# Everything of a finished match, one round's moves at a time, rendered once for every viewer.

MOVE_ROW = re.compile(r'<tr id="move-(\d+)">')


def shown_moves(page: str) -> list[int]:
    return [int(seq) for seq in MOVE_ROW.findall(page)]


def record_pages(client, match: Match) -> list[str]:
    """The record page once per round (``?round=N``), in order."""
    url = reverse("games:match_record", args=[match.pk])
    return [client.get(url, {"round": n}).content.decode() for n in range(1, match.round_no + 1)]


def test_the_record_of_a_finished_match_shows_everything(finished_match) -> None:
    """Players by seat and team, options, every round with levels, finish order, caught and
    tributes, and every move with its time (round by round, each exactly once); window
    answers are public once it is over."""
    match = finished_match
    pages = record_pages(client_for(), match)
    page = pages[-1]
    for name in ("ana", "bo", "cy", "AI 2"):
        assert name in page
    assert "played by AI" in page and "target_level" in page
    # The options as the create-table form lists them (the size, then its fields), each with
    # the form's label: "Rated" too, with yes/no as every option says it.
    shown = re.findall(r'data-option="(\w+)"', page.split('id="record-options"')[1])
    assert shown[:3] == ["players", "decks", "target_level"]
    assert shown[-4:] == ["first_lead", "anti_tribute", "rated", "spectator_delay"]
    assert '<div data-option="rated"><dt>Rated</dt><dd>no</dd></div>' in page
    assert page.count('id="record-round-') == match.round_no
    assert [seq for p in pages for seq in shown_moves(p)] == list(range(1, match.version + 1))
    assert f'href="/matches/{match.pk}/replay/"' in page
    last = Round.objects.get(match=match, number=match.round_no)
    names = {0: "ana", 1: "AI 2", 2: "bo", 3: "cy"}
    assert ", ".join(names[s] for s in last.finish_order) in page
    tributes = TributeRecord.objects.filter(match=match)
    assert tributes.exists()
    t = tributes.first()
    assert f"{names[t.payer]} paid {card_text(t.card)} to {names[t.receiver]}" in page
    every = "".join(pages)
    answers = [
        e for m in Move.objects.filter(match=match) for e in m.events if e["type"] == "answer"
    ]
    if any(e["cards"] for e in answers):
        assert "claimed with" in every
    assert "passed the claim window" in every


def test_the_moves_are_shown_one_round_at_a_time(finished_match) -> None:
    """A long match's record is not hundreds of rows: the moves of one round (the last by
    default, any other by ``?round=N``, linked from the rounds table and the moves' own round
    links); the heading counts them all. Any other ``round`` shows the default, never a 500."""
    match = finished_match
    assert match.round_no > 1
    url = reverse("games:match_record", args=[match.pk])
    client = client_for()

    def seqs(number: int) -> list[int]:
        moves = Move.objects.filter(match=match, round_no=number).order_by("seq")
        return list(moves.values_list("seq", flat=True))

    default = client.get(url).content.decode()
    assert shown_moves(default) == seqs(match.round_no)
    assert f"({match.version})" in default
    first = client.get(url, {"round": 1}).content.decode()
    assert shown_moves(first) == seqs(1)
    assert '<strong aria-current="page">Round 1</strong>' in first
    assert 'href="?round=2#record-moves" id="record-moves-round-2"' in first
    assert '<a href="?round=1#record-moves">1</a>' in first
    for bad in ("abc", "0", "-1", "1e3", "999", "9" * 40, "", "²", "9" * 5000):
        response = client.get(url, {"round": bad})
        assert response.status_code == 200, bad
        assert shown_moves(response.content.decode()) == seqs(match.round_no), bad


def test_a_finished_record_is_rendered_once_for_every_viewer(finished_match, make_user) -> None:
    """Its rounds and moves are the same for everyone who may open it: the second viewer's
    page reads no move (the cache holds the render, per round and language); another language
    gets its own render."""
    match = finished_match
    url = reverse("games:match_record", args=[match.pk])
    first = client_for().get(url, {"round": 1}).content.decode()
    with CaptureQueriesContext(connection) as queries:
        again = client_for(make_user("later")).get(url, {"round": 1}).content.decode()
    assert not [q["sql"] for q in queries if '"games_move"' in q["sql"]]
    assert shown_moves(again) == shown_moves(first)
    assert again[again.index('id="record-rounds"') :] == first[first.index('id="record-rounds"') :]
    export = reverse("games:match_export", args=[match.pk])
    made = client_for().get(export)
    with CaptureQueriesContext(connection) as queries:
        kept = client_for().get(export)
    assert not [q["sql"] for q in queries if '"games_move"' in q["sql"]]
    assert kept.content == made.content and kept["Content-Type"] == "application/json"
    assert len(kept.json()["moves"]) == match.version
    spanish = client_for()
    spanish.cookies["django_language"] = "es"
    page = spanish.get(url, {"round": 1}).content.decode()
    assert 'lang="es"' in page and "Ronda 2" in page and shown_moves(page) == shown_moves(first)


def test_record_replay_and_export_follow_the_table_visibility(finished_match, make_user):
    """A private table's history is 404 to strangers, like its table."""
    match = finished_match
    match.table.visibility = "private"
    match.table.save()
    stranger = client_for(make_user("stranger"))
    for name in ("games:match_record", "games:match_replay", "games:match_export"):
        assert stranger.get(reverse(name, args=[match.pk])).status_code == 404
        ana = client_for(match.table.seats.get(number=0).user)
        assert ana.get(reverse(name, args=[match.pk])).status_code == 200


def test_the_clocks_moves_say_what_happened_in_the_record_and_replay(finished_match) -> None:
    """Every move the clock made (cy never moves: her turns time out; windows close on their
    own) has a line: "cy's turn timed out: passed", "Claim window closed, no claim" — in the
    record's moves table and at that step of the replay (issue #10 item 9)."""
    match = finished_match
    clock = [
        m
        for number in range(1, match.round_no + 1)
        for m in history.record_context(match, None, number)["moves"]
        if m["who"] == "the clock"
    ]
    assert clock and all(m["lines"] for m in clock), [m for m in clock if not m["lines"]][:3]
    lines = [line for m in clock for line in m["lines"]]
    assert "cy's turn timed out: passed" in lines
    assert "Claim window closed, no claim" in lines
    step = next(m["seq"] for m in clock if "Claim window closed, no claim" in m["lines"])
    replay_page = (
        client_for()
        .get(reverse("games:match_replay", args=[match.pk]), {"step": step})
        .content.decode()
    )
    assert "Claim window closed, no claim" in replay_page


def test_a_trick_won_on_another_seats_pass_is_told_under_its_winner(finished_match) -> None:
    """A seat's pass that ends the trick logs the trick won by another seat in the passer's
    move: the record shows the win on a row of its own under the winner, and the replay's move
    line on a line of its own, so neither reads as the passer winning it (the same as a claim
    settled by a later answer: test_live_records.py)."""
    match = finished_match
    names = {0: "ana", 1: "AI 2", 2: "bo", 3: "cy"}
    ended = next(
        m
        for m in Move.objects.filter(match=match).order_by("seq")
        if m.seat is not None
        and any(e["type"] == "trick_won" and e["seat"] != m.seat for e in m.events)
    )
    winner = names[next(e["seat"] for e in ended.events if e["type"] == "trick_won")]
    won = f"{winner} won the trick"
    row = next(
        m
        for m in history.record_context(match, None, ended.round_no)["moves"]
        if m["seq"] == ended.seq
    )
    assert (row["who"], row["lines"]) == (names[ended.seat], [f"{names[ended.seat]} passed"])
    assert row["others"] == [{"who": winner, "lines": [won]}]
    page = client_for().get(
        reverse("games:match_record", args=[match.pk]), {"round": ended.round_no}
    )
    assert (
        f'<tr class="move-part"><td class="num"></td><td></td><td>{winner}</td><td>{won}</td>'
        in (page.content.decode())
    )
    replay_page = (
        client_for()
        .get(reverse("games:match_replay", args=[match.pk]), {"step": ended.seq})
        .content.decode()
    )
    assert f'{names[ended.seat]} passed<br><span class="replay-move-part">' in replay_page
    assert f'<span aria-hidden="true">↳ </span>{won}</span>' in replay_page
    # cy's turn timed out (the clock's move) and ended a trick: the win under its winner too.
    timed_out = next(
        m
        for n in range(1, match.round_no + 1)
        for m in history.record_context(match, None, n)["moves"]
        if m["lines"] == ["cy's turn timed out: passed"] and m["others"]
    )
    assert timed_out["who"] == "the clock"
    assert [o["lines"] for o in timed_out["others"]] == [
        [f"{o['who']} won the trick"] for o in timed_out["others"]
    ]
