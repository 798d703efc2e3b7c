import sys

from firmware.cli import main

sys.exit(main())
