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
from django.urls import reverse

from games.engine import apply, new_match
from games.engine.codec import action_from_json, state_to_json
from games.engine.options import Options
from games.live import replay
from games.models import Match, Move, Seat
from games.play import services, stewarding
from tests.games.records.matches import client_for

#: One worker drives the module's finished match once (conftest.py).
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
