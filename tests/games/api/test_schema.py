"""The bot API answers as its OpenAPI schema says (schemathesis, docs/BOT_API.md).

Schemathesis reads ``/api/v1/openapi.json`` from the real app, served in process through
Django's WSGI handler (no server to start: these tests carry neither the ``live`` nor the
``browser`` mark, so ``make test`` and ``make test-fast`` both run them), and checks every
answer with all its default checks: no server error, every status code and media type
declared, every body valid against its declared schema, schema-valid input accepted and
invalid input refused, the token enforced. The requests carry a real bot token made in the
test, so they reach the endpoints, not only the 401.

One test item per operation, named as schemathesis' pytest plugin names them ("GET
/api/v1/me"), from the bot API's own OpenAPI document (``games.api.api``, what
``openapi.json`` serves); ``test_the_items_are_the_served_schemas_operations`` holds the two
lists equal. Each item builds its operation's Hypothesis test as the plugin does
(``build_operation_test``: examples, fuzzing and the coverage cases, the operation's own seed)
when it runs, not at collection: the plugin built all of them on every pytest-xdist worker
(~1.3 s of CPU each), and imported schemathesis in every process (pyproject's addopts turn it
off: ``-p no:schemathesis``). A failure is reported as the plugin reports it
(``as_reported_failure``); a skip or an unsatisfiable operation fails the item. Repeatable:
examples are derandomized (a fixed seed per operation, no example database) and bounded
(``MAX_EXAMPLES`` per operation and mode, and schemathesis' coverage cases): about 450
requests, some 4 s of CPU.
"""

from __future__ import annotations

import functools
import json
import unittest
from typing import TYPE_CHECKING, Any

import pytest
from django.core import signals
from django.core.wsgi import get_wsgi_application
from django.db import close_old_connections
from hypothesis import HealthCheck, settings
from pydantic import TypeAdapter

from accounts.models import User
from games.api import api
from games.api.schemas import StreamLine
from tests.games.api.bot_match import HANDS

if TYPE_CHECKING:
    from schemathesis.schemas import BaseSchema

pytestmark = pytest.mark.django_db

#: Generated examples per operation and generation mode (valid, invalid).
MAX_EXAMPLES = 25
API_PREFIX = "/api/v1/"

#: Every operation of the bot API, labelled as schemathesis labels them: "GET /api/v1/me".
OPERATIONS = [
    f"{method.upper()} {path}"
    for path, methods in api.get_openapi_schema(path_prefix=API_PREFIX)["paths"].items()
    for method in methods
]


@functools.cache
def api_schema() -> BaseSchema:
    """The schema as schemathesis reads it from ``openapi.json``, served in process (once per
    test process)."""
    import schemathesis

    schema = schemathesis.openapi.from_wsgi(f"{API_PREFIX}openapi.json", get_wsgi_application())
    schema.config.generation.update(max_examples=MAX_EXAMPLES, deterministic=True)
    return schema


@functools.cache
def _feedback() -> Any:
    """The sources of constants for the generated values, one per schema (as the plugin's)."""
    from schemathesis.generation.feedback import FeedbackSources
    from schemathesis.python._constants.orchestrator import make_constants_value_source

    return FeedbackSources(constants_value_source=make_constants_value_source(api_schema()))


@pytest.fixture
def _in_process(monkeypatch):
    """Serve the WSGI app in the test's own database transaction: like Django's test client,
    keep the request signals (and the stream's ``database_sync_to_async``, which closes old
    connections around each read) from closing the test's connection."""
    monkeypatch.setattr("channels.db.close_old_connections", lambda: None)
    signals.request_started.disconnect(close_old_connections)
    signals.request_finished.disconnect(close_old_connections)
    yield
    signals.request_started.connect(close_old_connections)
    signals.request_finished.connect(close_old_connections)


@pytest.fixture
def _no_rate_limits(settings) -> None:
    """The rate limits out of the way: a 429 is declared on every operation, but the run is
    there to reach the endpoints, and to see a request without a token answered 401 (the
    coverage cases send dozens from one address, past ``BOTAPI_ANONYMOUS_RATE``)."""
    settings.BOTAPI_RATE = "100000/m"
    settings.BOTAPI_ANONYMOUS_RATE = "100000/m"


@pytest.fixture
def bot_headers(_in_process, _no_rate_limits, make_user, token_for) -> dict[str, str]:
    """A bot account's real token."""
    return {"Authorization": f"Bearer {token_for(make_user('robo', is_bot=True))}"}


@pytest.fixture
def open_table(make_user):
    from games.play import tables

    return tables.create_table(make_user("host"), name="open", players=4, options={})


# The token and the table are the run's, shared by every example of an operation on purpose.
@settings(deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
def answers_as_the_schema_says(case, bot_headers, open_table):
    case.call_and_validate(headers=bot_headers)


@pytest.mark.parametrize("label", OPERATIONS, ids=OPERATIONS)
def test_every_operation_answers_as_the_schema_says(label, bot_headers, open_table):
    """Generated requests (valid and invalid) to every operation; an open table exists, so
    ``/tables`` lists one. No match runs here: a stream of a running match never ends."""
    from schemathesis.checks import load_all_checks
    from schemathesis.core.control import SkipTest
    from schemathesis.core.failures import FailureGroup, as_reported_failure
    from schemathesis.pytest._test_builder import build_operation_test

    load_all_checks()  # what the plugin loads before it builds an operation's test
    schema = api_schema()
    operation = schema.find_operation_by_label(label)
    assert operation is not None, label
    run = build_operation_test(
        config=schema.config,
        operation=operation,
        test_func=answers_as_the_schema_says,
        given_kwargs={},
        feedback=_feedback(),
    )
    try:
        run(bot_headers=bot_headers, open_table=open_table)
    except FailureGroup as exc:
        raise as_reported_failure(exc) from None
    except (SkipTest, unittest.SkipTest) as exc:  # no request could be made: a failure, not a skip
        pytest.fail(f"{label}: no case was run: {exc}")


def test_the_items_are_the_served_schemas_operations():
    """The items above are every operation schemathesis finds in the served ``openapi.json``,
    each of which it can read (an operation it cannot read would fail here, as the plugin made
    it a failing item)."""
    from schemathesis.core.result import Ok

    results = list(api_schema().get_all_operations())
    assert all(isinstance(result, Ok) for result in results), results
    assert [result.ok().label for result in results] == OPERATIONS


# Served through WSGI here, the stream's async lines are gathered whole (Daphne streams them).
@pytest.mark.filterwarnings("ignore:StreamingHttpResponse must consume asynchronous iterators")
def test_real_tables_and_matches_answer_as_the_schema_says(
    _in_process, _no_rate_limits, make_table, start_with_hands, bomb_to_win, token_for
):
    """The answers a generated id rarely reaches, on real objects, through the same checks:
    sitting, accepting an invitation, leaving, a running match's view and actions (accepted
    and refused), another match's 403, and a finished match's stream, line by line."""
    from games.play import tables

    table = make_table(["ana", "bot", None, None], {"turn_seconds": 120})
    bot = User.objects.get(username="bot")
    User.objects.filter(pk=bot.pk).update(is_bot=True)
    headers = {"Authorization": f"Bearer {token_for(bot)}"}
    open_table = tables.create_table(table.host, name="open", players=4, options={})
    private = tables.create_table(
        table.host, name="private", players=4, options={}, visibility="private"
    )
    match = start_with_hands(table, HANDS, leader=1)
    other = start_with_hands(make_table(["cy", "di", None, None]), HANDS, leader=0)
    finished = bomb_to_win(names=("eve", "bot", "fay", "gus"))

    def call(path: str, method: str, status: int, body=None, **parameters):
        operation = api_schema()[f"/api/v1{path}"][method]
        with_body = {} if body is None else {"body": body}
        case = operation.Case(path_parameters=parameters or None, **with_body)
        response = case.call_and_validate(headers=headers)
        assert response.status_code == status, response.text
        return response

    sit = "/tables/{table_id}/sit"
    call(sit, "POST", 200, {"seat": 2}, table_id=open_table.pk)
    call(sit, "POST", 409, {"seat": 0}, table_id=open_table.pk)  # the host's
    call(sit, "POST", 400, {"seat": True}, table_id=open_table.pk)
    call("/tables/{table_id}/leave", "POST", 200, table_id=open_table.pk)
    call("/tables/{table_id}/leave", "POST", 409, table_id=table.pk)  # its match started
    call("/invitations/{invite_code}/accept", "POST", 200, {}, invite_code=private.invite_code)
    seats = call("/me", "GET", 200).json()["seats"]
    assert {"table": table.pk, "seat": 1, "status": "playing", "match": match.pk} in seats
    assert call("/tables", "GET", 200).json()["tables"]

    view = call("/matches/{match_id}/view", "GET", 200, match_id=match.pk).json()
    assert view["deadline"]["kind"] == "turn" and view["legal_actions"]
    act = "/matches/{match_id}/actions"
    play = {"action": "play", "cards": ["6H"], "version": 0, "client_id": "c1"}
    call(act, "POST", 200, play, match_id=match.pk)
    call(act, "POST", 409, play, match_id=match.pk)  # duplicate
    call(act, "POST", 400, {"action": "play", "version": 1}, match_id=match.pk)  # the writer's
    call(act, "POST", 400, {"action": "pass", "version": True}, match_id=match.pk)
    call(act, "POST", 403, play, match_id=other.pk)
    call("/matches/{match_id}/view", "GET", 403, match_id=other.pk)
    call(act, "POST", 409, {"action": "pass", "version": 9}, match_id=finished.pk)

    stream = call("/matches/{match_id}/stream", "GET", 200, match_id=finished.pk)
    lines = [json.loads(line) for line in stream.text.splitlines()]
    adapter = TypeAdapter(StreamLine)  # the schema's 200 is made from it
    assert [adapter.validate_python(line).type for line in lines] == ["view", "end"]
    call("/matches/{match_id}/stream", "GET", 403, match_id=other.pk)
