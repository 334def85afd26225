"""The record page of a match: everything of a finished match, what a spectator sees of a live
one, one round's moves at a time, and a finished record rendered once for every viewer."""

from __future__ import annotations

import re

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from games.live.cards import card_text
from games.models import Match, Move, Round, TributeRecord
from games.records import history
from tests.games.records.matches import client_for

#: One worker drives the module's finished match once (conftest.py).
pytestmark = [
    pytest.mark.django_db,
    pytest.mark.xdist_group("records-page"),
    pytest.mark.slow,  # the finished match is driven move by move
]


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
