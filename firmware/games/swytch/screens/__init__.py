"""Swytch's seat screens: pure renderers from a view to a 1-bit 128×64 image."""

from .render import draw, render
from .views import BoardView, EndView, LastTurn, OnlookerView, SwytchView

__all__ = ["BoardView", "EndView", "LastTurn", "OnlookerView", "SwytchView", "draw", "render"]
