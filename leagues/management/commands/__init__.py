"""``leagues_catch_up``: record results whose ``match_finished`` signal was lost."""
