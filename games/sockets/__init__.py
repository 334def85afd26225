"""The WebSockets: the table's socket and the lobby's, and what any socket may take.

Owns: the consumers (``consumers``, ``lobby_consumer`` fed by ``lobby_hub``), their thread pool
(``pool``), the message protocol (``protocol``), what a scope says (``scope``: session, person,
language), session binding (``session_guard``), caps and limits (``socket_limits``) and the
routes (``routing``).

May import: ``games.play`` (actions go to the writer), ``games.chat``, ``games.live``,
``games.access``, ``games.models``, ``accounts``.
"""
