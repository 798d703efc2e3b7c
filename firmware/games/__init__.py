"""The games the unit plays (Switch 16, Swytch) and the seam they share.

- :mod:`.game`: the interface (:class:`~.game.Game` and the states, headers and UI
  controllers it makes); :mod:`.registry`: the games by name (``GAMES``).
- :mod:`.switch16`: Switch 16 behind the seam; :mod:`.selfplay`: any game's self-play.
"""
