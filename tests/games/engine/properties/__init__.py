"""Properties over random seeded games (Hypothesis, derandomized): 2, 4, 6 and 8 players, random
table options, seeded random choices among ``legal_actions`` with occasional timeouts
(``driver.py``).

Each test drives whole rounds (and the next rounds, through tribute) and checks one property at
every step, one module per engine concept: cards are conserved (``test_cards``); what
``legal_actions`` offers is accepted and what ``apply`` accepts is offered (``test_legal_actions``);
rounds terminate and turns skip finished seats, windows resolve (``test_turns_and_windows``);
views and events never leak a card (``test_views``); replay and the JSON codec are exact
(``test_replay_and_codec``); and the driver reaches the paths that make these mean something
(``test_driver``).
"""
