"""Off the table: the bots' statistics and training. Switch 16's own self-play figures
(:mod:`.selfplay`, beside the runner's win rates: :mod:`firmware.games.selfplay`) and
the master's model fitted from self-play (:mod:`.train_master`, ``python3 -m
firmware.games.switch16.bots.stats.train_master``). Nothing that plays at the table imports these.
"""
