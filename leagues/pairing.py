"""Pairing teams for a tournament round: pure functions, no database.

Swiss (``swiss_round``) is one maximum-weight matching over every possible pair, solved by
networkx (``nx.max_weight_matching(maxcardinality=True)``): with an even number of nodes on a
complete graph the matching is perfect, so every team plays. Edge weights are integers built
lexicographically, so a heavier concern always outweighs every lighter one added up:

1. a bye to a team that already had one (only when every team has had one);
2. a repeat of two teams that already met (only when no pairing without a repeat exists);
3. the difference in score (points), squared: close scores are preferred;
4. the difference in rank, squared: within a score group, neighbours in the standings meet.

With an odd number of teams a ``BYE`` node joins the graph. It counts as a team below the last
one (score lowest − 1, rank last), so the bye goes to the lowest-ranked team that has not had
one. A bye scores as a win with no levels (``leagues.standings``).

Round robin (``round_robin``) is the circle method: team 0 stays, the others rotate; with an
odd number of teams a ``BYE`` slot is added and whoever meets it has the bye.

Each round is greedy (it never looks ahead), so with 6 or more teams a later Swiss round may be
forced to repeat a meeting that a different earlier pairing would have avoided; a repeat is only
ever made when no repeat-free pairing of the remaining meetings exists.
"""

from __future__ import annotations

import enum
from collections.abc import Hashable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Final

if TYPE_CHECKING:
    import networkx as nx


class _Bye(enum.Enum):
    """The one extra slot that evens out an odd number of teams. An enum member, not a string,
    so it can never equal a team and `slot is BYE` tells a type checker which one it is."""

    BYE = "bye"


BYE: Final = _Bye.BYE


@dataclass(frozen=True)
class PairedRound[T: Hashable]:
    """Pairs of teams (the first listed plays as team 0 at the table) and the bye, if any.
    ``T`` is the team's type (a tournament team pk)."""

    pairs: tuple[tuple[T, T], ...]
    bye: T | None = None


def swiss_round[T: Hashable](
    ranked: Sequence[T],
    scores: Mapping[T, int],
    met: Iterable[tuple[T, T]] = (),
    had_bye: Iterable[T] = (),
) -> PairedRound[T]:
    """Pair ``ranked`` teams (best first) for the next Swiss round.

    ``scores`` are integer points per team (missing = 0); ``met`` lists pairs that have
    already played (either order, repeats allowed); ``had_bye`` lists teams that had a bye.
    """
    teams = list(ranked)
    if len(set(teams)) != len(teams):
        raise ValueError("a team is listed twice")
    if len(teams) < 2:
        return PairedRound((), teams[0] if teams else None)
    score: dict[T | _Bye, int] = {t: int(scores.get(t, 0)) for t in teams}
    position: dict[T | _Bye, int] = {t: i for i, t in enumerate(teams)}
    met_pairs = {frozenset(p) for p in met}
    byes = set(had_bye)
    nodes: list[T | _Bye] = list(teams)
    if len(nodes) % 2:
        score[BYE] = min(score.values()) - 1
        position[BYE] = len(teams)
        nodes.append(BYE)

    n = len(nodes)
    spread = max(score.values()) - min(score.values())
    half = n // 2
    # Largest total a lower concern can reach over one matching, plus one: the next weight up.
    rank_unit = 1
    score_unit = half * n * n + 1
    repeat_unit = half * (spread * spread * score_unit + n * n) + 1
    bye_unit = half * (repeat_unit + spread * spread * score_unit + n * n) + 1
    base = bye_unit + repeat_unit + spread * spread * score_unit + n * n + 1

    # Imported here, not at the top: the admin imports this module in every process (each
    # Celery worker, Daphne, manage.py command), and networkx costs ~0.18 s of CPU to import,
    # which only a Swiss round needs.
    import networkx as nx

    graph: nx.Graph[T | _Bye] = nx.Graph()
    graph.add_nodes_from(nodes)
    for i, a in enumerate(nodes):
        for b in nodes[i + 1 :]:
            weight = base
            weight -= score_unit * (score[a] - score[b]) ** 2
            weight -= rank_unit * (position[a] - position[b]) ** 2
            if a is BYE or b is BYE:
                weight -= bye_unit if a in byes or b in byes else 0
            elif frozenset((a, b)) in met_pairs:
                weight -= repeat_unit
            graph.add_edge(a, b, weight=weight)

    matching = nx.max_weight_matching(graph, maxcardinality=True)
    pairs: list[tuple[T, T]] = []
    bye: T | None = None
    for a, b in matching:
        if a is BYE:
            bye = b if b is not BYE else None
        elif b is BYE:
            bye = a
        else:
            pairs.append((a, b) if position[a] < position[b] else (b, a))
    pairs.sort(key=lambda p: position[p[0]])
    return PairedRound(tuple(pairs), bye)


def round_robin[T: Hashable](teams: Sequence[T]) -> list[PairedRound[T]]:
    """Every round of an all-play-all by the circle method: each pair meets exactly once.

    n teams give n − 1 rounds (n even) or n rounds with one bye each (n odd). Sides alternate
    so a team is not always team 0.
    """
    slots: list[T | _Bye] = list(teams)
    if len(set(slots)) != len(slots):
        raise ValueError("a team is listed twice")
    if len(slots) < 2:
        return []
    if len(slots) % 2:
        slots.append(BYE)
    n = len(slots)
    rounds = []
    for r in range(n - 1):
        pairs: list[tuple[T, T]] = []
        bye: T | None = None
        for i in range(n // 2):
            a, b = slots[i], slots[n - 1 - i]
            if (r + i) % 2:
                a, b = b, a
            if a is BYE:
                bye = b if b is not BYE else None
            elif b is BYE:
                bye = a
            else:
                pairs.append((a, b))
        rounds.append(PairedRound(tuple(pairs), bye))
        slots = [slots[0], slots[-1], *slots[1:-1]]
    return rounds


def rounds_needed(fmt: str, teams: int) -> int:
    """Rounds a tournament plays when none are planned: all-play-all for round robin; for
    Swiss, enough to find a winner by halving (⌈log2 n⌉), at most the round-robin count."""
    if teams < 2:
        return 0
    all_play_all = teams - 1 if teams % 2 == 0 else teams
    if fmt == "round_robin":
        return all_play_all
    return min(all_play_all, (teams - 1).bit_length())
