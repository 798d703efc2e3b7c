"""Swytch on the unit: its picker, controls and screens (issue 27)."""
