"""The read side: what each viewer may see of a table, rendered once per audience and pushed.

Owns: what a viewer may see at which version (``visibility``: seats, spectators, the delay;
every page, push and record asks it), the delayed view's stepping (``delay``), rebuilding a
state from the move log (``replay``), presenting (``context``: the table context, a dataclass;
``presenters``: building it from a view; ``regions``: each region's template and the fields it
reads, which make its delta key; ``cards``: card faces and text; ``log``: events as sentences
and seat names; ``explain``, ``teams``, ``rematch_view``; ``own_seat``: what the viewer's own
seat's screen offers; ``claim_help``: a claim window explained, the first few times), frames
and pushes (``frames``, ``push``, ``audiences``, ``notify``), the lobby's lists (``lobby``; their
HTML kept a moment per language: ``lobby_cache``), spectator presence (``spectating``), whose
page went away (``away``: a seat's "disconnected") and the Redis keys (``redis_store``).

May import: ``games.access``, ``games.organisers``, ``games.models``, ``games.engine``,
``accounts``. Never ``games.play``: the writer calls in here after its commit, not the reverse.
"""
