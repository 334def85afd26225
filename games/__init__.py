"""The games app: tables, matches and everything live about them.

Rooms, from the top down; each imports only from the rooms below it (``make lint`` holds it:
pyproject.toml's ``[tool.importlinter]``, docs/ARCHITECTURE.md):

- Django's own files at the root: ``tasks`` (Celery), ``views``, ``urls``, ``admin``, ``apps``,
  ``forms``, ``management``, ``templatetags``.
- ``sockets`` (the WebSockets), ``api`` (the bot API), ``records`` (history, replays, statistics).
- ``play`` (the writer: every change to a table or match) and ``chat`` (table chat).
- ``live`` (the read side: what each viewer sees, rendered and pushed).
- ``access`` (who may watch a table), ``organisers`` (where leagues plug in), ``signals``.
- ``models``, then ``engine`` (the pure rules and AI: no Django).

The games app imports nothing from ``leagues``: leagues register with ``games.organisers`` and
listen to ``games.signals``.
"""
