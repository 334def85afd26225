"""The expert review's pages (issue 20): the record page's accuracy, chart and decisions, the
replay's review of a move, the profile's accuracy trend, and who sees what (no card of a
decision the viewer may not see, in the HTML, the htmx fragment or the chart's JSON)."""

from __future__ import annotations

import json
import re

import pytest
from django.contrib.auth.models import AnonymousUser
from django.core.cache import cache
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse
from django.utils import translation

from accounts.models import User
from accounts.review_trend import accuracy_trend
from games.live import replay
from games.live.cards import card_text
from games.models import Match, RoundReview, Table
from games.records import review_page, reviews
from games.records.review_detail import decision_row, even_note
from tests.games.records.matches import REVIEW_SAMPLES, client_for

pytestmark = [pytest.mark.django_db, pytest.mark.xdist_group("finished_match")]

SAMPLES = REVIEW_SAMPLES
CARD_TEXT = re.compile(r"(?:10|[2-9JQKA])[♠♥♦♣]|Red joker|Black joker")
JSON_SCRIPT = re.compile(r'<script id="([^"]+)" type="application/json">(.*?)</script>', re.S)


def _page(url: str, user=None, **headers) -> str:
    response = client_for(user).get(url, **headers)
    assert response.status_code == 200, response.status_code
    return response.content.decode()


def _record(match: Match, user=None, round_no: int | None = None) -> str:
    url = reverse("games:match_record", args=[match.pk])
    return _page(url + (f"?round={round_no}" if round_no else ""), user)


def _section(page: str) -> str:
    start = page.index('id="record-reviews"')
    return page[start : page.index("</section>", start)]


def _live(match: Match) -> Match:
    """The match as if still being played (its reviews of ended rounds kept)."""
    Match.objects.filter(pk=match.pk).update(winner_team=None)
    cache.clear()
    return Match.objects.select_related("table").get(pk=match.pk)


def test_match_accuracy_is_weighted_by_weighed_decisions():
    assert review_page.match_accuracy([(100.0, 1), (50.0, 3)]) == pytest.approx(62.5)
    assert review_page.match_accuracy([(None, 0), (80.0, 0)]) is None
    assert review_page.match_accuracy([]) is None
    assert review_page.weight_of({"good": 3, "blunder": 1, "forced": 9}) == 4
    assert review_page.weight_of(None) == 1  # a row without counts still counts once


def test_the_record_page_charts_and_lists_each_decision(finished_match):
    match = finished_match
    made = reviews.make(match.pk, 1, samples=SAMPLES)
    assert made == 2  # ana and bo; cy decided nothing of her own (timeouts): no review
    page = _record(match, round_no=1)
    section = _section(page)
    ana = RoundReview.objects.get(match=match, round_no=1, seat=0)
    decisions = ana.data["decisions"]
    assert decisions
    # Accuracy: each round and the match, per player (one round: the same figure).
    if ana.accuracy is not None:
        assert f'data-seat="0"><strong>{round(ana.accuracy)}%</strong>' in section
    # Every decision a row, linked to its move in the replay, with the hand as it was.
    replay_url = reverse("games:match_replay", args=[match.pk])
    for n, d in enumerate(decisions, start=1):
        assert f'id="review-1-0-{n}"' in section
        assert f'href="{replay_url}?step={d["version"] + 1}&amp;seat=0"' in section
        hand = replay.state_at(match, d["version"]).hands[0]
        assert " ".join(card_text(c) for c in hand) in section
    # The chart's data: numbers, marks and row ids only.
    scripts = dict(JSON_SCRIPT.findall(page))
    chart = json.loads(scripts["review-chart-1-0-data"])
    assert chart["x"] == list(range(1, len(decisions) + 1))
    assert chart["targets"] == [f"review-1-0-{n}" for n in chart["x"]]
    played = [d["played_value"] for d in decisions]
    assert chart["lines"][0]["values"] == [None if v is None else round(v, 3) for v in played]
    assert not CARD_TEXT.search(scripts["review-chart-1-0-data"])
    assert 'src="/static/vendor/uplot/uPlot.iife.min.js"' in page
    assert "<script>" not in page and " style=" not in section  # CSP: no inline code or style


def test_an_old_review_row_without_values_still_renders(finished_match):
    match = finished_match
    reviews.make(match.pk, 1, samples=SAMPLES)
    row = RoundReview.objects.get(match=match, round_no=1, seat=0)
    for d in row.data["decisions"]:
        for key in ("played_value", "best_value", "patterns", "kind"):
            d.pop(key, None)
    row.data.pop("counts")
    row.save()
    section = _section(_record(match, round_no=1))
    assert 'id="review-1-0-1"' in section
    assert 'id="review-chart-1-0"' not in section  # nothing to chart, the table stays


def test_the_loss_is_written_as_the_values_are_in_the_readers_language(finished_match):
    """Spanish: the Loss column and the replay's loss read "1,25" as the value columns read
    "0,83" (the loss came out as "1.25", formatted before the template saw it)."""
    from django.conf import settings

    match = finished_match
    reviews.make(match.pk, 1, samples=SAMPLES)
    row = RoundReview.objects.get(match=match, round_no=1, seat=0)
    first = row.data["decisions"][0]
    first["loss"] = 1.25
    row.save()
    client = client_for(None)
    client.cookies[settings.LANGUAGE_COOKIE_NAME] = "es"
    url = reverse("games:match_record", args=[match.pk]) + "?round=1"
    section = _section(client.get(url).content.decode())
    cells = re.search(r'id="review-1-0-1".*?</tr>', section, re.S)
    assert cells is not None
    assert '<td class="num">1,25</td>' in cells.group(0), cells.group(0)
    assert "1.25" not in cells.group(0)
    replay_url = reverse("games:match_replay", args=[match.pk])
    step = first["version"] + 1
    fragment = client.get(f"{replay_url}?step={step}&seat=0", HTTP_HX_REQUEST="true")
    box = fragment.content.decode()
    box = box[box.index('id="replay-review"') :]
    assert "<dd>1,25" in box[: box.index("</dl>")]


def test_a_live_match_shows_a_player_only_their_own_decisions(finished_match):
    match = finished_match
    reviews.make(match.pk, 1, samples=SAMPLES)
    live = _live(match)
    bo, ana = User.objects.get(username="bo"), User.objects.get(username="ana")
    page = _record(live, bo, round_no=1)
    section = _section(page)
    assert 'data-seat="2"' in section and 'data-seat="0"' not in section
    assert "review-chart-1-0" not in page and "review-1-0-1" not in page
    assert "/replay/?step=" not in section  # no replay while the match is on
    held = set()
    for d in RoundReview.objects.get(match=live, round_no=1, seat=2).data["decisions"]:
        held |= {card_text(c) for c in replay.state_at(live, d["version"]).hands[2]}
    shown = set(CARD_TEXT.findall(section))
    assert shown and shown <= held, shown - held
    # The accuracy table names nobody else either.
    assert '<th scope="col" class="num">ana</th>' not in section
    assert 'data-seat="0"' in _section(_record(live, ana, round_no=1))
    for viewer in (None, User.objects.create_user("dee", password="x")):
        other = _record(live, viewer)
        assert 'id="record-reviews"' not in other and "review-chart" not in other
    # The replay (and its htmx fragment) stays closed while the match is on: no review there.
    step = RoundReview.objects.get(match=live, round_no=1, seat=2).data["decisions"][0]["version"]
    url = reverse("games:match_replay", args=[live.pk]) + f"?step={step + 1}&seat=2"
    for headers in ({}, {"HTTP_HX_REQUEST": "true"}):
        refused = client_for(bo).get(url, **headers)
        assert refused.status_code == 409
        assert "replay-review" not in refused.content.decode()
    # Once the match is over, everyone's, the reader's own first.
    Match.objects.filter(pk=match.pk).update(winner_team=match.winner_team)
    cache.clear()
    order = re.findall(r'class="record-review" data-round="1" data-seat="(\d)"', _record(live, bo))
    assert order == ["2", "0"]


def test_the_replay_reviews_the_move_it_shows(finished_match):
    match = finished_match
    reviews.make(match.pk, 1, samples=SAMPLES)
    ana = RoundReview.objects.get(match=match, round_no=1, seat=0)
    d = ana.data["decisions"][0]
    step = d["version"] + 1
    url = reverse("games:match_replay", args=[match.pk])
    fragment = _page(f"{url}?step={step}&seat=0", HTTP_HX_REQUEST="true")
    assert fragment.lstrip().startswith('<div id="replay"')  # the htmx fragment carries it too
    box = fragment[fragment.index('id="replay-review"') :]
    box = box[: box.index("</div>")]
    hand = replay.state_at(match, d["version"]).hands[0]
    assert " ".join(card_text(c) for c in hand) in box
    assert "The expert on move" in box
    marked = [x for r in reviews.visible(match, None, None, 1) for x in r.data["decisions"]]
    marked = [x for x in marked if x["mark"] in review_page.MARK_LABELS and x["mark"] != "good"]
    for x in marked:
        assert f'id="replay-marked-{x["version"] + 1}"' in fragment
    page = _page(f"{url}?step=0")
    assert 'id="replay-review"' not in page  # the deal is nobody's decision


def test_the_profile_trend_follows_the_match_list(finished_match):
    match = finished_match
    for r in (1, 2):
        reviews.make(match.pk, r, samples=SAMPLES)
    ana = User.objects.get(username="ana")
    trend = accuracy_trend(ana, AnonymousUser())
    rows = list(RoundReview.objects.filter(match=match, seat=0))
    expected = review_page.match_accuracy((r.accuracy, review_page.weighed(r)) for r in rows)
    if expected is None:
        pytest.skip("ana had nothing to weigh in these rounds")
    assert [(p["match_id"], p["accuracy"]) for p in trend] == [(match.pk, round(expected))]
    page = _page(reverse("profile", args=["ana"]))
    assert 'id="accuracy-trend"' in page and 'id="trend-chart-data"' in page
    chart = json.loads(dict(JSON_SCRIPT.findall(page))["trend-chart-data"])
    assert chart["lines"][0]["values"] == [round(expected)]
    assert chart["x_range"] == [0.5, 1.5]  # one match: its point in the middle, not 0–2
    # A private table: not on the profile for who may not watch it; its players still see it.
    Table.objects.filter(pk=match.table_id).update(visibility=Table.Visibility.PRIVATE)
    assert accuracy_trend(ana, AnonymousUser()) == []
    assert 'id="accuracy-trend"' not in _page(reverse("profile", args=["ana"]))
    assert len(accuracy_trend(ana, User.objects.get(username="bo"))) == 1
    # A match still being played: no trend point, even for its own player.
    _live(match)
    assert accuracy_trend(ana, ana) == []


#: The statements of the record page of a finished match with reviews, as ana, once its body is
#: cached: two of them the reviews' (every round's accuracy and counts, the shown round's
#: decisions). Pinned: a change that adds one must say why.
RECORD_STATEMENTS = 8


def _statements(match: Match, user, round_no: int) -> list[str]:
    client = client_for(user)
    url = reverse("games:match_record", args=[match.pk]) + f"?round={round_no}"
    assert client.get(url).status_code == 200  # the body is rendered and cached
    with CaptureQueriesContext(connection) as queries:
        assert client.get(url).status_code == 200
    return [q["sql"] for q in queries]


def test_the_record_page_reads_the_decisions_of_the_round_shown_only(finished_match):
    """Every round's accuracy and mark counts, but one round's decisions: a page's statements
    and the review data it reads do not grow with the rounds reviewed."""
    match = finished_match
    ana = User.objects.get(username="ana")
    reviews.make(match.pk, 1, samples=SAMPLES)
    one = _statements(match, ana, 1)
    for r in (2, 3):
        reviews.make(match.pk, r, samples=SAMPLES)
    three = _statements(match, ana, 1)
    assert len(three) == len(one) == RECORD_STATEMENTS, three
    read = [sql for sql in three if '"games_roundreview"' in sql]
    assert len(read) == 2, read
    brief, full = sorted(read, key=lambda sql: "-> " in sql, reverse=True)
    assert "-> " in brief and '"games_roundreview"."data",' not in brief  # counts only
    assert '"games_roundreview"."round_no" = 1' in full  # the decisions of round 1 only


#: The statements of a player's match list (one finished match), one of them its accuracies.
MATCH_LIST_STATEMENTS = 5


def test_the_match_list_shows_the_players_accuracy_in_one_statement(finished_match):
    match = finished_match
    client, url = client_for(), reverse("games:player_matches", args=["ana"])
    with CaptureQueriesContext(connection) as before:
        page = client.get(url).content.decode()
    assert 'class="num match-accuracy"><span class="muted">—' in page
    for r in (1, 2):
        reviews.make(match.pk, r, samples=SAMPLES)
    rows = list(RoundReview.objects.filter(match=match, seat=0))
    expected = review_page.match_accuracy((r.accuracy, review_page.weighed(r)) for r in rows)
    with CaptureQueriesContext(connection) as after:
        page = client.get(url).content.decode()
    assert len(after) == len(before) == MATCH_LIST_STATEMENTS, [q["sql"] for q in after]
    assert len([q for q in after if '"games_roundreview"' in q["sql"]]) == 1
    row = page[page.index(f'id="player-match-{match.pk}"') :]
    row = row[: row.index("</tr>")]
    if expected is not None:
        assert '#record-reviews" title="The expert' in row and f">{round(expected)}%</a>" in row
    # A match still being played: no accuracy, not even its player's own.
    _live(match)
    for viewer in (None, User.objects.get(username="ana")):
        page = client_for(viewer).get(url).content.decode()
        assert "#record-reviews" not in page


def _row(section: str, row_id: str) -> str:
    start = section.index(f'id="{row_id}"')
    return section[start : section.index("</tr>", start)]


def test_an_expert_move_no_better_than_the_one_played_is_shown_as_no_better(finished_match):
    """The judge counts a gap inside the samples' noise as no loss. A walk's player saw the
    expert's pass at 0.81 against 0.83 played (and 0.74 against 0.46) with loss 0 and "good",
    and read the review as broken: such a row now says the move played is as good, with the
    noise margin when the row has it, and the page says once what the values are."""
    match = finished_match
    reviews.make(match.pk, 1, samples=SAMPLES)
    row = RoundReview.objects.get(match=match, round_no=1, seat=0)
    decisions = row.data["decisions"]
    plays = [d for d in decisions if d["played"]["type"] != "pass"]
    assert len(plays) >= 4
    higher, lower, old, lost = plays[:4]
    passing = {"type": "pass", "seat": 0}
    higher.update(best=passing, played_value=0.83, best_value=0.81, loss=0.0, mark="good")
    higher["noise"] = 0.05
    lower.update(best=passing, played_value=0.46, best_value=0.74, loss=0.0, mark="good")
    lower["noise"] = 0.3012
    old.update(best=passing, played_value=0.46, best_value=0.74, loss=0.0, mark="good")
    old.pop("noise", None)  # a row reviewed before the margin was stored
    lost.update(best=passing, played_value=0.1, best_value=0.6, loss=0.5, mark="mistake")
    lost["noise"] = 0.2
    row.save()
    section = _section(_record(match, round_no=1))
    ids = {id(d): f"review-1-0-{n}" for n, d in enumerate(decisions, start=1)}
    html = _row(section, ids[id(higher)])
    assert "<td>Passed" in html and "0.83" in html and "0.81" in html
    assert "The move played is as good: valued no lower than the expert&#x27;s move." in html
    html = _row(section, ids[id(lower)])
    assert "The move played is as good: the gap is within the samples&#x27; noise (±0.30)." in html
    html = _row(section, ids[id(old)])
    assert "The move played is as good: the gap is within the samples&#x27; noise." in html
    html = _row(section, ids[id(lost)])
    assert "review-even" not in html and "0.50" in html  # a clear gap stays a loss, unexplained
    assert section.count('id="review-legend"') == 1
    assert "a round won" in section and "noise is no loss" in section
    # The replay's box for that move says the same.
    url = reverse("games:match_replay", args=[match.pk])
    fragment = _page(f"{url}?step={lower['version'] + 1}&seat=0", HTTP_HX_REQUEST="true")
    box = fragment[fragment.index('id="replay-review"') :]
    box = box[: box.index("</div>")]
    assert "The move played is as good" in box and "(±0.30)" in box


def test_the_noise_margin_is_written_like_the_values_beside_it():
    """In Spanish the values read 0,46 and 0,74 (floatformat): the margin too, and a margin of
    0 (one sample, or no spread) is left out rather than shown as ±0.00."""
    with translation.override("es"):
        assert "(±0,30)" in even_note(0.46, 0.74, 0.3012)
        assert "±" not in even_note(0.46, 0.74, 0.0) and "±" not in even_note(0.46, 0.74, None)
        assert "±" not in even_note(0.83, 0.81, 0.05)  # valued no lower: no gap to explain


#: What a reviewed player did, as the review says it under "Played" (the row's label, not
#: repeated): per kind of decision and language.
PLAYED_SAID = {
    "en": [
        "6♥",
        "Passed",
        "Passed the claim window",
        "Hooked with 9♥ 9♣",
        "Unhooked with 5♦",
        "Returned 3♠",
    ],
    "es": [
        "6♥",
        "Pasó",
        "Pasó en la ventana de enganche",
        "Enganchó con 9♥ 9♣",
        "Desenganchó con 5♦",
        "Devolvió 3♠",
    ],
    "id": [
        "6♥",
        "Lewat",
        "Melewati jendela kait",
        "Mengait dengan 9♥ 9♣",
        "Melepas kait dengan 5♦",
        "Mengembalikan 3♠",
    ],
    "vi": ["6♥", "Bỏ qua", "Bỏ qua lần móc", "Móc bằng 9♥ 9♣", "Gỡ móc bằng 5♦", "Trả lại 3♠"],
}
DECISIONS = [
    ("play", {"type": "play", "seat": 0, "cards": ["6H"]}),
    ("pass", {"type": "pass", "seat": 0}),
    ("window_pass", {"type": "pass", "seat": 0}),
    ("hook", {"type": "hook", "seat": 0, "cards": ["9H", "9C"]}),
    ("unhook", {"type": "unhook", "seat": 0, "cards": ["5D"]}),
    ("return", {"type": "return", "seat": 0, "card": "3S"}),
]


@pytest.mark.parametrize("language", sorted(PLAYED_SAID))
def test_the_move_played_is_said_once_in_every_language(language):
    """A tester read "Played: play: 6♥" (Indonesian "Main: main: 6♥"): the kind of decision
    and the label said the same word twice. The move played now says itself: a play its cards,
    any other decision its verb ("Passed", "Hooked with 9♥ 9♣"); a row stored without its
    kind says a pass plainly."""
    with translation.override(language):
        said = [review_page.played_text(kind, action) for kind, action in DECISIONS]
        assert said == PLAYED_SAID[language]
        assert review_page.played_text("", {"type": "pass", "seat": 0}) == PLAYED_SAID[language][1]


@pytest.mark.parametrize("language", sorted(PLAYED_SAID))
def test_the_expert_s_move_is_said_as_the_move_played_is(language):
    """The expert's move read "pass" (lower case; "paso", "lewat") beside the player's "Passed"
    ("Pasó", "Lewat"), its hook "hook with 9♥ 9♣" beside "Hooked with 9♥ 9♣": each move is said
    the same way in both columns, in every language, and the expert's pass in a claim window
    is that window's pass whatever the player did there (here, hooked)."""
    review = RoundReview(round_no=1, seat=0)
    other = {"type": "play", "seat": 0, "cards": ["3S"]}
    with translation.override(language):
        for (kind, best), said in zip(DECISIONS, PLAYED_SAID[language], strict=True):
            decision = {"version": 3, "kind": kind, "played": other, "best": best}
            assert decision_row(review, 1, decision, None)["best"] == said
        hooked = {"version": 3, "kind": "hook", "played": DECISIONS[3][1], "best": DECISIONS[1][1]}
        assert decision_row(review, 1, hooked, None)["best"] == PLAYED_SAID[language][2]


def test_the_replay_and_the_record_say_the_move_played_once(finished_match):
    """The replay's review box and the record's decision row, in Indonesian: "Main" (Played)
    then the cards alone, not "Main: main: 6♥"."""
    from django.conf import settings

    match = finished_match
    reviews.make(match.pk, 1, samples=SAMPLES)
    row = RoundReview.objects.get(match=match, round_no=1, seat=0)
    n, play = next(
        (n, d) for n, d in enumerate(row.data["decisions"], start=1) if d["kind"] == "play"
    )
    cards = " ".join(card_text(c) for c in play["played"]["cards"])
    client = client_for(None)
    client.cookies[settings.LANGUAGE_COOKIE_NAME] = "id"
    url = reverse("games:match_replay", args=[match.pk])
    box = client.get(f"{url}?step={play['version'] + 1}&seat=0").content.decode()
    box = box[box.index('id="replay-review"') :]
    box = box[: box.index("</dl>")]
    assert f"<dt>Main</dt><dd>{cards}</dd>" in box
    assert "main:" not in box
    record = client.get(reverse("games:match_record", args=[match.pk]) + "?round=1")
    cells = _row(_section(record.content.decode()), f"review-1-0-{n}")
    assert f"<td>{cards}</td>" in cells and ">main<" not in cells
