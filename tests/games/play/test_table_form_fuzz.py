"""Generated bad input to every form a player posts at a table or in the lobby (issue 18 §3 Goals:
0 server errors): open a table, play the computer, play again, take and leave a seat, an AI for a
seat, fill with AI, start, the seat controls (stand-in, I'm back, leave, resign), rematch, the
claim help's "Got it", and the chat's mute, unmute and report. Play, pass, hook and unhook go by
the table socket (tests/games/sockets), not by form.

Hypothesis starts from a post the form takes and gives some fields tricky values (empty, blank,
numbers out of range, words for numbers, card names, long text, NUL, other scripts) or leaves them
out, by a plain form or by htmx. Every answer is below 500, and a refused post (a 4xx, an error
message, or a form or flash sent back) changed nothing: the same rows, seats, table statuses and
match versions as before. ``TABLE_FUZZ_SCALE=20`` multiplies the examples."""

from __future__ import annotations

import os
from collections.abc import Callable

import pytest
from django.contrib import messages
from django.test import Client
from django.urls import reverse
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from accounts.models import User
from games.models import ChatLine, ChatMute, ChatReport, Match, Move, Rematch, Seat, Table
from games.play import services, tables
from leagues.models import Notice
from tests.built_once import world_fixtures
from tests.conftest import PASSWORD
from tests.db_snapshot import Snapshot

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("uncaptured_templates")]

SCALE = max(1, int(os.environ.get("TABLE_FUZZ_SCALE", "1")))
SETTINGS = dict(
    max_examples=20 * SCALE,
    derandomize=True,
    deadline=None,
    database=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)

QUICK = {"target_level": "5", "claim_window_seconds": 0, "turn_seconds": 20}

#: Values a form must answer: refused ones, and some it takes (so later fields get checked).
TRICKY = [
    "",
    " ",
    "0",
    "-1",
    "1",
    "2",
    "3",
    "8",
    "999999",
    "99999999999999999999",
    "9" * 5000,
    "²",
    "1.5",
    "nan",
    "abc",
    "3S",
    "BJ",
    "on",
    "\x00",
    "a\x00b",
    "x" * 300,
    "ask",
    "yes",
    "no",
    "resign",
    "stand_in",
    "back",
    "leave",
    "expert",
    "heuristic",
    "casual",
    "private",
    "A",
    "//evil.example",
    "/\\evil.example",
    "abc/def",
    "<script>x</script>",
    "bàn chơi ♠ 桌",
]

value = st.one_of(
    st.sampled_from(TRICKY),
    st.text(st.characters(exclude_categories=["Cs"]), max_size=30),
    st.integers(min_value=-(2**70), max_value=2**70).map(str),
    st.lists(st.sampled_from(TRICKY), min_size=2, max_size=3),
)


def posts(fields: list[str], valid: dict):
    """Form data: ``valid`` (what the form takes) with some of ``fields`` given a generated
    value instead, or left out; and whether htmx sends it."""
    missing = object()
    changes = st.dictionaries(st.sampled_from(fields), st.one_of(value, st.just(missing)))

    def apply(changed: dict) -> dict:
        data = {**valid, **changed}
        return {k: v for k, v in data.items() if v is not missing}

    return st.tuples(changes.map(apply), st.booleans())


def _build_world() -> dict:
    """An open table (ana hosts, three empty seats); a running match (cy at seat 0, di at 2,
    AI seats between) with a line of di's in the players' chat; a finished table (ed and flo,
    flo resigned); gus, seated nowhere."""
    ana, cy, di, ed, flo, gus = (
        User.objects.create_user(n, password=PASSWORD)
        for n in ("ana", "cy", "di", "ed", "flo", "gus")
    )
    lobby = tables.create_table(ana, name="open", players=4, options=QUICK)

    running = tables.create_table(cy, name="running", players=4, options=QUICK)
    tables.take_seat(running.pk, di, 2)
    tables.fill_with_ai(running.pk, cy, Seat.Policy.HEURISTIC)
    tables.start(running.pk, cy, seed=3)
    line = ChatLine.objects.create(table=running, room=ChatLine.Room.PLAYERS, author=di, text="hi")

    finished = tables.create_table(ed, name="finished", players=4, options=QUICK)
    tables.take_seat(finished.pk, flo, 2)
    tables.fill_with_ai(finished.pk, ed, Seat.Policy.HEURISTIC)
    match = tables.start(finished.pk, ed, seed=7)
    assert services.submit(match.pk, flo, {"action": "resign", "version": match.version}).ok

    return {
        "ana": ana,
        "cy": cy,
        "di": di,
        "ed": ed,
        "gus": gus,
        "lobby": lobby,
        "running": running,
        "finished": finished,
        "line": line,
    }


_world, world = world_fixtures(_build_world)


#: What a refused post must leave as it was: the counts of every kind of row a post makes, and
#: each table's status and revision, each seat's occupant, each match's version and phase
#: (``tests.db_snapshot``: one query, compiled once, as it is read twice for each post).
_SNAPSHOT = Snapshot(
    counts={
        model.__name__: model.objects.all()
        for model in (Table, Seat, Match, Move, Rematch, ChatLine, ChatMute, ChatReport, Notice)
    },
    rows={
        "tables": Table.objects.values_list("pk", "status", "revision"),
        "seats": Seat.objects.values_list(
            "table_id", "number", "user_id", "ai_policy", "stand_in", "stand_in_seq"
        ),
        "matches": Match.objects.values_list("pk", "version", "phase"),
    },
)


def _state() -> dict:
    """What a refused post must leave as it was (``_SNAPSHOT``)."""
    return _SNAPSHOT()


def _refused(response, flash_refuses: bool = True) -> bool:
    """A 4xx, an error message queued by this request, or a form or flash sent back (the chat's
    actions answer htmx with a flash either way: ``flash_refuses`` False)."""
    queued = getattr(response.wsgi_request, "_messages", None)
    errors = [m for m in getattr(queued, "_queued_messages", []) if m.level == messages.ERROR]
    sent_back = (
        flash_refuses
        and response.status_code == 200
        and bool(response.content)
        and "HX-Redirect" not in response
    )
    return response.status_code >= 400 or bool(errors) or sent_back


def _post(client: Client, url: str, data: dict, htmx: bool) -> None:
    """Post ``data``: never a 5xx; a refusal leaves everything as it was."""
    before = _state()
    headers = {"HX-Request": "true"} if htmx else {}
    response = client.post(url, data, headers=headers)
    assert response.status_code < 500, (url, data, htmx)
    if _refused(response, flash_refuses=not url.startswith("/social/")):
        assert _state() == before, (url, data, htmx, response.status_code)


OPTIONS_FIELDS = ["target_level", "claim_window_seconds", "turn_seconds", "two_position"]
SEAT_CONTROL_FIELDS = ["action", "stand_in_seq", "client_id", "version"]

# Each case: who posts, the address, the fields Hypothesis changes, and data the form takes.
CASES: dict[str, Callable[[dict], tuple]] = {
    "create table": lambda w: (
        "gus",
        reverse("games:create_table"),
        ["name", "seats", "rated", "visibility", "spectator_delay", *OPTIONS_FIELDS],
        {"name": "Mine", "seats": "4", "visibility": "public", "spectator_delay": "0"}
        | {"target_level": "A", "claim_window_seconds": "3", "turn_seconds": "30"}
        | {"two_position": "low", "bomb_order": "jokers_top", "lead_after_out": "teammate"}
        | {"first_lead": "top_payer"},
    ),
    "play the computer": lambda w: (
        "gus",
        reverse("games:play_computer"),
        ["difficulty"],
        {"difficulty": "heuristic"},
    ),
    "play again": lambda w: ("ed", reverse("games:play_again"), ["next", "table"], {}),
    "take seat": lambda w: (
        "gus",
        reverse("games:take_seat", args=[w["lobby"].pk]),
        ["seat"],
        {"seat": "1"},
    ),
    "leave seat": lambda w: (
        "ana",
        reverse("games:leave_seat", args=[w["lobby"].pk]),
        ["seat"],
        {},
    ),
    "seat AI": lambda w: (
        "ana",
        reverse("games:set_ai", args=[w["lobby"].pk]),
        ["seat", "policy"],
        {"seat": "1", "policy": "expert"},
    ),
    "fill with AI": lambda w: (
        "ana",
        reverse("games:fill_with_ai", args=[w["lobby"].pk]),
        ["policy"],
        {"policy": "casual"},
    ),
    "start": lambda w: ("ana", reverse("games:start", args=[w["lobby"].pk]), ["seed"], {}),
    "stand-in": lambda w: (
        "di",
        reverse("games:seat_control", args=[w["running"].pk]),
        SEAT_CONTROL_FIELDS,
        {"action": "stand_in", "stand_in_seq": "0", "client_id": "c1"},
    ),
    "back": lambda w: (
        "di",
        reverse("games:seat_control", args=[w["running"].pk]),
        SEAT_CONTROL_FIELDS,
        {"action": "back", "stand_in_seq": "0", "client_id": "c1"},
    ),
    "resign": lambda w: (
        "cy",
        reverse("games:seat_control", args=[w["running"].pk]),
        SEAT_CONTROL_FIELDS,
        {"action": "resign", "client_id": "c1"},
    ),
    "rematch": lambda w: (
        "ed",
        reverse("games:rematch", args=[w["finished"].pk]),
        ["answer"],
        {"answer": "ask"},
    ),
    "claim help": lambda w: ("cy", reverse("games:claim_help_done"), ["next"], {}),
    "mute": lambda w: (
        "cy",
        reverse("chat:mute", args=[w["di"].pk]),
        ["next"],
        {"next": "/social/friends/"},
    ),
    "unmute": lambda w: (
        "cy",
        reverse("chat:unmute", args=[w["di"].pk]),
        ["next"],
        {"next": "/social/friends/"},
    ),
    "invite": lambda w: (
        "ana",
        reverse("friends:invite", args=[w["lobby"].pk]),
        ["username", "next"],
        {"username": "gus"},
    ),
    "invite from friends page": lambda w: (
        "ana",
        reverse("friends:invite_any"),
        ["table", "username"],
        {"table": str(w["lobby"].pk), "username": "gus"},
    ),
    "report": lambda w: (
        "cy",
        reverse("chat:report", args=[w["line"].pk]),
        ["next", "reason"],
        {},
    ),
}


@pytest.mark.slow  # hundreds of generated posts: `make test`, not `make test-fast`
@pytest.mark.parametrize("case", list(CASES))
def test_generated_bad_input_never_fails_the_server_nor_changes_a_refused_table(
    client, world, case
):
    who, url, fields, valid = CASES[case](world)
    client.force_login(world[who])

    @settings(**SETTINGS)
    @given(posts(fields, valid))
    def run(post: tuple[dict, bool]) -> None:
        _post(client, url, *post)

    run()


#: Strings ``str.isdigit`` takes and ``int`` refuses: each goes once into every field.
DIGITS_INT_REFUSES = ["²", "9" * 5000]


@pytest.mark.parametrize("case", list(CASES))
def test_digits_python_cannot_read_are_refused_in_every_field(client, world, case):
    """What generated examples find only now and then, in every field of every form."""
    who, url, fields, valid = CASES[case](world)
    client.force_login(world[who])
    for field in fields:
        for digits in DIGITS_INT_REFUSES:
            _post(client, url, valid | {field: digits}, htmx=False)


@pytest.mark.parametrize("case", list(CASES))
def test_anonymous_posts_change_nothing(client, world, case):
    """Signed out, every form sends to sign in (or refuses) and nothing changes."""
    _who, url, _fields, valid = CASES[case](world)
    before = _state()
    response = client.post(url, valid)
    assert response.status_code < 500
    assert response.status_code in (302, 403) and _state() == before


@pytest.mark.parametrize("case", ["take seat", "seat AI", "stand-in", "rematch", "mute", "report"])
def test_forged_ids_in_the_address_are_refused(client, world, case):
    """Another table or person's id than the page's (none with it): 404, nothing changed."""
    who, url, _fields, valid = CASES[case](world)
    client.force_login(world[who])
    parts = url.split("/")  # /tables/<id>/take/ or /social/mute/<id>/
    parts[2 if parts[1] == "tables" else 3] = "999999"
    forged = "/".join(parts)
    before = _state()
    response = client.post(forged, valid)
    assert response.status_code == 404, forged
    assert _state() == before
