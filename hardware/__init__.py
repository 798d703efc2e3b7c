"""The reference build of the unit, installed with the package so every install finds it.

``unit.toml`` here is the single source of every pin, address and wiring choice
(:data:`hal.config.REFERENCE_CONFIG`); the build guide, wiring table, installer and
systemd service live beside it in the source tree.
"""
