"""The writer: every change to a table or a running match, and the wake-ups that follow.

Owns: submitting and applying actions (``services``: lock, check — ``checks``; a deadline too: the
writer judges it, the clock only wakes it —, apply with the engine, record, commit), what follows a
commit (``after_commit``: publish, arm the deadline, wake seats, announce a round's end), the round
and tribute summaries beside the move log (``summaries``), refusal codes and the action log line
(``outcomes``), the clock (``clock``: deadlines in Redis; ``deadlines``: what a deadline, an AI
seat or a sweep does when its moment comes), the one module that schedules Celery work
(``wakeups``), AI seats' decisions (``ai_turns``), seats (``tables``, ``stewarding`` for
organisers, ``standins``) with one seating-changed step (``seating``), stopping a match without a
result (``stopping``; ``unattended``: a casual match nobody is at any more), rematches
(``rematches``), "Play the computer" (``quick``) and the count of claim windows explained
(``first_windows``).

May import: ``games.live`` (after-commit publishing only), ``games.access``,
``games.organisers``, ``games.signals``, ``games.models``, ``games.engine``, ``accounts``,
``config``. Never ``games.tasks`` (wake-ups are sent by name), ``sockets``, ``api``, ``records``.
"""
