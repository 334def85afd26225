"""Signals other apps listen to (leagues feed standings from finished matches).

``match_finished`` is sent after the commit that ended a match, with ``match_id``. A receiver
must be idempotent: a redelivery (or a second sweep) may send it again for the same match.
"""

from django.dispatch import Signal

match_finished = Signal()
