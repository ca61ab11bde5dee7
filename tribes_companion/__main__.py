"""``python -m tribes_companion`` runs the console command."""

import sys

from tribes_companion.cli import main

sys.exit(main())
