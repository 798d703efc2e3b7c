"""The desktop simulator: the real unit loop on a pygame HAL (:mod:`sim.hal`).

``sim`` opens the window (:mod:`sim.app`); ``sim --headless`` lets bots play a game
on a virtual clock and saves the turn log, transcript and screenshots (:mod:`sim.demo`).
"""
