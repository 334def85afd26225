"""What is kept of matches: the record, the replay and the export (``history``, ``views``), and
every finished match counted once into players' statistics (``player_stats``,
``player_tally``).

May import: ``games.live`` (what a viewer may see, sentences, cards), ``games.access``,
``games.signals``, ``games.models``, ``games.engine``. Never ``games.play``.
"""
