"""leagues.standings: scoring and tie-breaks, without a database."""

from __future__ import annotations

from leagues.standings import BYE, FORFEIT, Result, partner_stats, standings


def table(rows):
    return [(r.entrant, r.played, r.won, r.lost, r.levels, r.caught) for r in rows]


def test_a_played_match_counts_for_every_player_of_both_teams():
    """Winners get a win with their team's levels and caught; losers a loss with theirs."""
    rows = standings(
        [Result((("ana", "cy"), ("bo", "di")), winner=0, levels=(3, 1), caught=(4, 1))]
    )
    assert table(rows) == [
        ("ana", 1, 1, 0, 3, 4),
        ("cy", 1, 1, 0, 3, 4),
        ("bo", 1, 0, 1, 1, 1),
        ("di", 1, 0, 1, 1, 1),
    ]
    assert [r.position for r in rows] == [1, 2, 3, 4]


def test_wins_come_first_then_levels_then_caught():
    """More wins beat more levels; equal wins are split by levels, then by players caught."""
    results = [
        Result((("a",), ("x",)), winner=0, levels=(1, 0), caught=(2, 0)),
        Result((("b",), ("x",)), winner=0, levels=(5, 0), caught=(1, 0)),
        Result((("c",), ("x",)), winner=0, levels=(5, 0), caught=(3, 0)),
        Result((("d",), ("x",)), winner=0, levels=(1, 0), caught=(1, 0)),
        Result((("d",), ("y",)), winner=0, levels=(0, 0), caught=(0, 0)),
    ]
    rows = standings(results)
    assert [r.entrant for r in rows] == ["d", "c", "b", "a", "x", "y"]  # x, y: 0 wins, by name
    assert [(r.won, r.levels, r.caught) for r in rows[:4]] == [
        (2, 1, 1),
        (1, 5, 3),
        (1, 5, 1),
        (1, 1, 2),
    ]


def test_head_to_head_splits_a_tie_on_wins_levels_and_caught():
    """Two entrants level on everything: the one who won their meeting ranks higher."""
    results = [
        Result((("zed",), ("amy",)), winner=0, levels=(2, 0), caught=(2, 0)),
        Result((("amy",), ("q",)), winner=0, levels=(2, 0), caught=(2, 0)),
        Result((("q",), ("zed",)), winner=0, levels=(2, 0), caught=(2, 0)),
        Result((("amy",), ("zed",)), winner=0, levels=(0, 0), caught=(0, 0)),
        Result((("zed",), ("r",)), winner=0, levels=(0, 0), caught=(0, 0)),
    ]
    rows = standings(results)
    # amy and zed: 2 wins, 2 levels, 2 caught each; zed beat amy once and amy beat zed once,
    # so head-to-head is level too and the name decides.
    assert [(r.entrant, r.won, r.levels, r.caught) for r in rows[:2]] == [
        ("amy", 2, 2, 2),
        ("zed", 2, 2, 2),
    ]
    rows = standings(
        results[:3]
        + results[4:]
        + [Result((("q",), ("x",)), winner=1, levels=(0, 0), caught=(0, 0))]
    )
    # Now zed beat amy and amy never beat zed: zed first despite the name.
    assert [(r.entrant, r.won) for r in rows[:2]] == [("zed", 2), ("amy", 1)]


def test_head_to_head_in_a_three_way_tie_uses_wins_inside_the_group():
    """Three tied entrants are ordered by their wins against each other, then by name."""
    results = [
        Result((("c",), ("a",)), winner=0),
        Result((("c",), ("b",)), winner=0),
        Result((("a",), ("b",)), winner=0),
        Result((("b",), ("x",)), winner=0),
        Result((("a",), ("x",)), winner=0),
        Result((("x",), ("c",)), winner=0),
    ]
    rows = standings(results)
    assert [(r.entrant, r.won) for r in rows] == [("c", 2), ("a", 2), ("b", 1), ("x", 1)]
    # Inside the group {c, a}: c beat a. Inside {b, x}: b beat x, though x beat c.


def test_names_break_the_last_ties_and_entrants_without_results_appear():
    """Fully tied rows sort by name case-insensitively; listed entrants with no result show 0."""
    rows = standings([], entrants=[3, 1, 2], names={1: "bravo", 2: "Alpha", 3: "charlie"})
    assert [(r.entrant, r.name, r.played, r.position) for r in rows] == [
        (2, "Alpha", 0, 1),
        (1, "bravo", 0, 2),
        (3, "charlie", 0, 3),
    ]


def test_a_bye_is_a_win_with_no_levels_and_a_forfeit_a_win_for_the_other_side():
    """Bye: played 1, won 1, byes 1, no levels. Forfeit: the winner gets no levels either."""
    rows = {
        r.entrant: r
        for r in standings(
            [
                Result(((1,), ()), winner=0, kind=BYE),
                Result(((2,), (3,)), winner=1, kind=FORFEIT),
            ]
        )
    }
    assert (rows[1].played, rows[1].won, rows[1].byes, rows[1].levels, rows[1].points) == (
        1,
        1,
        1,
        0,
        1,
    )
    assert (rows[3].played, rows[3].won, rows[3].levels) == (1, 1, 0)
    assert (rows[2].played, rows[2].lost) == (1, 1)


def test_partner_stats_count_matches_and_wins_beside_each_partner():
    """Each player's partners: matches together and wins together; byes do not count."""
    stats = partner_stats(
        [
            Result((("ana", "cy"), ("bo", "di")), winner=0),
            Result((("ana", "bo"), ("cy", "di")), winner=1),
            Result((("ana", "cy"), ("bo", "di")), winner=1),
            Result((("ana", "cy"), ()), winner=0, kind=BYE),
        ]
    )
    assert [(p.partner, p.played, p.won) for p in stats["ana"]] == [("cy", 2, 1), ("bo", 1, 0)]
    assert [(p.partner, p.played, p.won) for p in stats["di"]] == [("bo", 2, 1), ("cy", 1, 1)]
    assert stats["ana"][0].win_rate == 0.5
