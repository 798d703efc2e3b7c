"""Swytch, the two-player hex-board strategy game (docs/SWYTCH.md)."""
