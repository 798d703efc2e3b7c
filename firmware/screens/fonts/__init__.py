"""Bundled font files (DejaVu Sans Bold, Bitstream Vera licence in LICENSE-DejaVu.txt)."""
