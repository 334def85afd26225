"""What the audiences of one push share (``frames.Renders``, ``public_part.SharedParts``,
``speech.speaking``'s words) never changes a frame: each audience's delta, rendered after the
others of its push, is the delta rendered for it alone, and a seat's frame holds no other seat's
cards nor another seat's "you". No database: the in-memory table of ``test_frames``."""

from __future__ import annotations

import random
import re
from itertools import groupby

from django.utils import timezone

from games.engine import NextRound, apply
from games.engine.ai import policy
from games.engine.deal import new_match
from games.engine.options import Options
from games.engine.rules import legal_actions, seats_to_act
from games.engine.state import MATCH_OVER, ROUND_OVER
from games.engine.views import seat_view
from games.live import frames, speech
from games.live.cards import card_slots
from games.live.public_part import SharedParts
from tests.games.live.test_frames import in_memory_table, set_deadline

#: A push's audiences in the order ``audiences.live`` lists them (seats, then spectators),
#: speaking three languages: runs of one language, as ``push.publish_move`` groups them.
AUDIENCES = [(0, "es"), (1, "es"), (2, "en"), (3, "vi"), (None, "vi")]
CARD_VALUE = re.compile(r'name="cards" value="([^"]+)"')
CARD_ID = re.compile(r'id="(?:card|label)-([^"]+)"')
YOU_BADGE = '<span class="badge you">'
SEAT_ROOT = re.compile(r'<div id="seat-(\d)" class="([^"]*)"')


def _delta(table, match, seats, old, new, events, seat, renders):
    return frames.delta(
        table, match, seats, old, new, events, seat, table.revision, renders=renders
    )


def test_each_audience_s_delta_in_a_shared_push_is_its_delta_alone(monkeypatch) -> None:
    # the countdowns' seconds are the wall clock's: one instant for every render here
    now = timezone.now()
    monkeypatch.setattr(timezone, "now", lambda: now)
    options = {"claim_window_seconds": 3, "turn_seconds": 20}
    table, seats, match = in_memory_table(options)
    rng = random.Random(11)
    policies = [policy("heuristic"), policy("random")] * 2
    state = new_match(Options.from_dict(options, players=4), 11)
    set_deadline(match, state)
    rows_alone = own_rows = claims = 0
    while state.version < 260 and state.phase != MATCH_OVER:
        if state.phase == ROUND_OVER:
            action = NextRound()
        else:
            seat = rng.choice(seats_to_act(state))
            action = policies[seat].choose(seat_view(state, seat), legal_actions(state, seat), rng)
        outcome = apply(state, action)
        old, state = state, outcome.state
        set_deadline(match, state)
        shared = {}
        renders = frames.Renders()  # one push
        for language, run in groupby(AUDIENCES, key=lambda audience: audience[1]):
            with speech.speaking(language):
                for seat, _language in run:
                    shared[seat] = _delta(
                        table, match, seats, old, state, outcome.events, seat, renders
                    )
        for seat, language in AUDIENCES:
            with speech.speaking(language):  # a push of one audience: nothing shared
                alone = _delta(
                    table, match, seats, old, state, outcome.events, seat, frames.Renders()
                )
            assert shared[seat] == alone, (state.version, seat)
            text = shared[seat]
            hand = set(state.hands[seat]) if seat is not None else set()
            slots = set(card_slots(sorted(state.hands[seat]))) if seat is not None else set()
            assert set(CARD_VALUE.findall(text)) <= hand, (state.version, seat)
            claims += bool(CARD_VALUE.findall(text))
            gone = set(card_slots(sorted(old.hands[seat]))) if seat is not None else set()
            assert set(CARD_ID.findall(text)) <= slots | gone, (state.version, seat)
            for number, classes in SEAT_ROOT.findall(text):
                mine = int(number) == seat
                assert (" me " in f" {classes} ") == mine, (state.version, seat, number)
                rows_alone += 1
                own_rows += mine
            assert text.count(YOU_BADGE) <= 1, (state.version, seat)
            if seat is None:
                assert YOU_BADGE not in text and 'id="hand' not in text
    # the shared paths were taken: rows pushed alone, each seat's own among them, claims
    assert rows_alone > 200 and own_rows > 50 and claims > 10


def test_a_key_s_text_is_kept_for_the_same_objects_only() -> None:
    shared = SharedParts()
    window = {"owner": 1, "face": "9"}
    key = (7, True, window, None)
    assert shared.key_text(key) == repr(key)
    assert shared.key_text((7, True, window, None)) == repr(key)  # the same objects: kept
    other = {"owner": 2, "face": "9"}
    assert shared.key_text((7, True, other, None)) == repr((7, True, other, None))
    equal = dict(window)
    assert shared.key_text((7, True, equal, None)) == repr(key)  # equal objects: written again
