"""Switch 16's own ``switch16`` sub-commands, one module each, shaped as
:mod:`firmware.commands`' (the command line finds them: :func:`firmware.cli.command_modules`)."""
