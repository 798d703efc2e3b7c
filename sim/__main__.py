"""``python -m sim``: the same as the ``sim`` command."""

import sys

from sim.app import main

sys.exit(main())
