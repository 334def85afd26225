"""A round's result, and a match's, told in words from the scoring facts (RULES.md §7, §8).

The result panel (``games.live.presenters``) and the match record (``games.records.history``) both
explain a round with ``explain_round``, so the two never say different things. A round is won by
the team that had *all* its players out first (RULES.md §0, §7's team T), which alone moves up —
by the number of opponents it caught, capped at the target level — or wins the match (§8). Who
went out first says nothing about that (seat 1 of team 2 can go out first while team 1 takes
the round), so the result never names the first seat out's team: the headline and the lines
below name team T only. Teams are named by ``games.live.teams`` only.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from games.engine.cards import face_name
from games.live.teams import team_name


@dataclass(frozen=True)
class RoundFacts:
    """What the engine decided at a round's end (§7, §8), in engine terms.

    ``players``: seats at the table; ``finish_order``: seats in the order they went out;
    ``team``: the team whose seats all finished (None while the round runs); ``caught``: the
    opponents still holding cards;
    ``levels_before`` / ``levels_after``: both teams' levels as ranks (2..14, 14 = A);
    ``target``: the target level as a rank (§10 ``target_level``); ``match_winner``: the team
    that won the match with this round, if it did; ``resigned``: the seat that resigned (the
    round then ended with the match, nobody caught).
    """

    players: int
    finish_order: Sequence[int]
    team: int | None
    caught: Sequence[int]
    levels_before: Sequence[int]
    levels_after: Sequence[int] | None
    target: int
    match_winner: int | None = None
    resigned: int | None = None


def explain_round(facts: RoundFacts, names: Mapping[int, str]) -> list[str]:
    """The round's result as short translated sentences, in the order a player asks: which team
    had everyone out (and so took the round) and whom it caught, what that did to the levels
    (or the match). ``names`` maps seat numbers to shown names. [] while the round runs."""
    if facts.resigned is not None:
        return [_resigned(facts, facts.resigned, names)]
    team, levels_after = facts.team, facts.levels_after
    if team is None or levels_after is None:
        return []
    count = len(facts.caught)
    lines = [
        ngettext(
            "Every player of %(team)s is out; %(count)s opponent was caught: %(caught)s.",
            "Every player of %(team)s is out; %(count)s opponents were caught: %(caught)s.",
            count,
        )
        % {
            "team": team_name(team),
            "count": count,
            "caught": ", ".join(names.get(s, "") for s in facts.caught),
        }
    ]
    lines.extend(_levels(facts, team, levels_after))
    return lines


def _resigned(facts: RoundFacts, resigned: int, names: Mapping[int, str]) -> str:
    winner = facts.match_winner if facts.match_winner is not None else 1 - resigned % 2
    return _("%(name)s resigned, so %(team)s wins the match; the levels stay as they were.") % {
        "name": names.get(resigned, ""),
        "team": team_name(winner),
    }


def _levels(facts: RoundFacts, team: int, levels_after: Sequence[int]) -> list[str]:
    """What §8 did with the caught count: a match win, no change at the target, or a rise
    (capped at the target, the extra steps lost). ``team``, ``levels_after``: the facts' own,
    known at the round's end."""
    count = len(facts.caught)
    before, after = facts.levels_before[team], levels_after[team]
    target = face_name(facts.target)
    if facts.match_winner is not None:
        return [
            _(
                "%(team)s wins the match: it started the round at the target level %(target)s "
                "and caught every opponent."
            )
            % {"team": team_name(team), "target": target}
        ]
    if before == facts.target:
        return [
            ngettext(
                "No level change: %(team)s is at the target level and caught only one "
                "opponent (it must catch all %(needed)s to win).",
                "No level change: %(team)s is at the target level and caught only %(count)s "
                "opponents (it must catch all %(needed)s to win).",
                count,
            )
            % {"team": team_name(team), "count": count, "needed": facts.players // 2}
        ]
    gained = after - before
    lines = [
        ngettext(
            "%(team)s goes up %(count)s level: %(before)s → %(after)s.",
            "%(team)s goes up %(count)s levels: %(before)s → %(after)s.",
            gained,
        )
        % {
            "team": team_name(team),
            "count": gained,
            "before": face_name(before),
            "after": face_name(after),
        }
    ]
    if gained < count:
        lines.append(
            _("Levels stop at the target level %(target)s: the other steps are lost.")
            % {"target": target}
        )
    if after == facts.target:
        lines.append(
            _(
                "%(team)s is at the target level: catching every opponent in a round from "
                "there wins the match."
            )
            % {"team": team_name(team)}
        )
    return lines
