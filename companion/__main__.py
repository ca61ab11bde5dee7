"""``python -m companion`` runs the console command (``table-companion``)."""

import sys

from companion.cli import main

sys.exit(main())
