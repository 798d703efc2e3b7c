"""Off the table: the bots' statistics and training. Self-play runs and their summary
(:mod:`.selfplay`), its text report (:mod:`.report`) and charts (:mod:`.plots`), and
the master's model fitted from self-play (:mod:`.train_master`, ``python3 -m
firmware.games.switch16.bots.stats.train_master``). Nothing that plays at the table imports these.
"""
