"""The games the unit plays (Switch 16, Swytch) and the seam they share."""
