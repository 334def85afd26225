"""Leagues, seasons, ratings and tournaments built on ordinary games.Table matches."""
