"""``python -m pairhw``: the same as the ``pairhw`` command."""

import sys

from pairhw.cli import main

sys.exit(main())
