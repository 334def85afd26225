"""Signals other apps listen to: how the games app tells them about matches without importing
them (leagues feed standings and ratings from here).

``match_finished`` is sent after the commit that ended a match, with ``match_id``, and at a
table with a spectator delay again once the spectators' view reached the end (``games.live.delay``).
A receiver must be idempotent: a redelivery (or a second sweep) may send it again for the same
match. One that makes the result public (statistics, ratings, standings) acts only once
``games.live.visibility.result_public(match)`` holds, and does nothing on the earlier signal.

``rated_match_counted`` is sent once per finished rated match, inside the transaction that
counts it (``games.records.player_stats``), with ``match`` (a ``Match``), ``team0`` and
``team1`` (the users seated for each team) and ``winner`` (0 or 1): a receiver writes in that
transaction, so the match is rated exactly when it is counted. A receiver's error rolls the
count back (it is counted again by the catch-up).
"""

from django.dispatch import Signal

match_finished = Signal()
rated_match_counted = Signal()
