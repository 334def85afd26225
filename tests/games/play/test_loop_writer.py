"""The writer's entry on the event loop (``games.play.loop_writer``): a plain move made there is
the move ``services.submit`` makes, and whatever else the writer does under the lock is handed
back (``IN_POOL``) having written nothing. Real PostgreSQL and Redis, the loop's own connection.
"""

from __future__ import annotations

from datetime import timedelta

import pytest
from asgiref.sync import sync_to_async
from django.db import transaction
from django.utils import timezone

from games.models import Match, Move
from games.play import loop_writer, services, writes
from tests.games.live.test_query_counts import four_people

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.asyncio]

PLAY_9D = {"action": "play", "cards": ["9D"], "version": 0, "client_id": "c1"}


def started(make_user, prefix: str, explained: int = 3) -> tuple[Match, list]:
    """``four_people``'s match (seat 1 leads, 9D in hand), its seats kept by this process as
    a worker's move leaves them (``services.seats_of`` under the lock), and every person past
    the claim windows' help unless ``explained`` says otherwise."""
    match, people = four_people(make_user, prefix, audiences_each=1)
    for person in people:
        person.claim_windows_explained = explained
        person.save(update_fields=["claim_windows_explained"])
    with transaction.atomic():
        services.seats_of(writes.lock_match(match.pk))
    return match, people


def log_of(match: Match) -> list[tuple]:
    return list(
        Move.objects.filter(match=match)
        .order_by("seq")
        .values_list("seq", "round_no", "seat", "action", "events", "client_id", "by_ai")
    )


def row_of(match: Match) -> tuple:
    m = Match.objects.get(pk=match.pk)
    return (m.version, m.phase, m.round_no, m.deadline_kind, m.deadline_token, m.state)


async def test_a_plain_play_is_the_move_the_pool_writer_makes(make_user):
    on_loop, loop_people = await sync_to_async(started)(make_user, "l")
    in_thread, thread_people = await sync_to_async(started)(make_user, "t")
    result = await loop_writer.submit(on_loop.pk, loop_people[1], PLAY_9D)
    expected = await sync_to_async(services.submit)(in_thread.pk, thread_people[1], PLAY_9D)
    assert result == expected
    assert result.ok and result.version == 1
    assert await sync_to_async(log_of)(on_loop) == await sync_to_async(log_of)(in_thread)
    assert await sync_to_async(row_of)(on_loop) == await sync_to_async(row_of)(in_thread)


async def test_a_refusal_is_answered_on_the_loop_and_changes_nothing(make_user):
    match, people = await sync_to_async(started)(make_user, "r")
    not_yours = {**PLAY_9D, "cards": ["3S"]}  # seat 0's card, sent by seat 1
    result = await loop_writer.submit(match.pk, people[1], not_yours)
    assert not result.ok and result.code != ""
    assert result.version == 0
    assert await sync_to_async(log_of)(match) == []


async def test_a_client_id_seen_before_is_a_duplicate_on_the_loop(make_user):
    match, people = await sync_to_async(started)(make_user, "d")
    assert (await loop_writer.submit(match.pk, people[1], PLAY_9D)).ok
    again = await loop_writer.submit(match.pk, people[1], {**PLAY_9D, "version": 1})
    assert again.code == "duplicate"
    assert len(await sync_to_async(log_of)(match)) == 1


def late(match: Match) -> None:
    Match.objects.filter(pk=match.pk).update(deadline=timezone.now() - timedelta(seconds=1))


def seats_forgotten(match: Match) -> None:
    services._recent_seats.clear()


@pytest.mark.parametrize(
    ("why", "payload"),
    [
        ("stale", {**PLAY_9D, "version": 3}),  # was it resent? the pool's writer asks the log
        ("late", PLAY_9D),  # the deadline's own transition first
        ("resigned", {"action": "resign", "version": 0}),  # the round's summary row
    ],
)
async def test_what_the_loop_does_not_make_is_handed_to_the_pool_unwritten(make_user, why, payload):
    match, people = await sync_to_async(started)(make_user, "h")
    if why == "late":
        await sync_to_async(late)(match)
    before = await sync_to_async(row_of)(match)
    assert await loop_writer.submit(match.pk, people[1], payload) == loop_writer.IN_POOL
    assert await sync_to_async(row_of)(match) == before
    assert await sync_to_async(log_of)(match) == []
    made = await sync_to_async(services.submit)(match.pk, people[1], payload)
    assert made.code == {"stale": "stale", "late": "late"}.get(why, "")


async def test_seats_not_kept_here_are_read_on_the_loop_and_kept(make_user):
    match, people = await sync_to_async(started)(make_user, "k")
    await sync_to_async(seats_forgotten)(match)
    assert (await loop_writer.submit(match.pk, people[1], PLAY_9D)).ok
    kept = services._recent_seats[(match.table_id, match.table.revision)]
    assert [s.user_id for s in kept[2]] == [p.pk for p in people]
    assert kept[1]  # with the rows' stamp: the next lock reuses them


def count_of(person) -> int:
    return type(person).objects.get(pk=person.pk).claim_windows_explained


async def test_a_claim_window_answer_counts_towards_the_claim_help_on_the_loop(make_user):
    """After 9D a claim window opens (seat 0 holds 9H 9C); seat 0, still shown the claim help,
    passes it: the answer and its count are one transaction on the loop."""
    match, people = await sync_to_async(started)(make_user, "w", explained=1)
    assert (await loop_writer.submit(match.pk, people[1], PLAY_9D)).ok
    assert (await sync_to_async(row_of)(match))[1] == "window"
    answer = {"action": "pass", "version": 1, "client_id": "c2"}
    assert (await loop_writer.submit(match.pk, people[0], answer)).ok
    assert await sync_to_async(count_of)(people[0]) == 2
    assert people[0].claim_windows_explained == 2  # the socket's person, as the row
    assert await sync_to_async(count_of)(people[2]) == 1  # not an answer of theirs
