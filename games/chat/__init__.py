"""Table chat: the players' and the spectators' rooms (``rooms``), mutes (``mutes``) and the
actions on lines (``views``, ``urls``). Quick phrases are stored codes: ``games.models.phrases``.

May import: ``games.live`` (sending to groups), ``games.access``, ``games.models``,
``accounts``.
"""
