"""``python -m tribes_companion`` runs the console command."""

import sys

from companion.cli import main

sys.exit(main())
