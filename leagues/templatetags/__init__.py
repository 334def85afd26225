"""Template tags of the league and tournament pages (``leagues_tags``)."""
