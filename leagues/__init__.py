"""The leagues app: leagues and their members, seasons, fixtures and standings, league and
site-wide ratings (the leaderboard), tournaments (teams, rounds, pairings, the staff's actions),
and the notices that tell players about them. Every match it runs is an ordinary
``games.Table``; it only links to it and records the result once the match ends.

What it may import:
- Django, and the game's public pieces: ``games.models`` (``Table``, ``Seat``, ``Match``),
  ``games.play.stewarding`` (open, start, abandon a table, hand a seat), ``games.play.tables``
  (``TableError``, seat counts), ``games.live.teams`` (team names), ``games.forms``
  (``TableOptionsForm``), ``games.signals`` (``match_finished``), ``games.live.visibility``
  (whether a result is public yet, the spectator delay) and ``games.engine``'s
  ``options`` and ``cards``;
- nothing from ``accounts`` (a user is ``settings.AUTH_USER_MODEL`` / ``get_user_model()``).

The games app must not import this one: leagues build on games, never the reverse. Where games
needs an answer only leagues have (who may see a fixture's table, the site rating of a finished
match), leagues are to hand it over from ``LeaguesConfig.ready`` rather than games reaching in.

Inside the app, modules import downwards only (no import circle, not even inside a function):
``skill``, ``standings``, ``pairing`` and ``players`` (a typed name → the player, case aside)
are leaves; ``models`` reads ``skill``; ``access``, ``notices`` and ``ratings`` read the models;
``results``, ``services`` and ``tournaments`` build on those, ``round_robin`` (a round-robin
season's fixtures at once) on ``services``; the forms (``forms`` for leagues,
``tournament_forms``), views, admin and URLs sit on top.
"""
