"""Tribes for the tracker: the facts of a Tribes table (``facts``), the moves to try (``propose``), the
policy the game-neutral tracker asks (``policy``) and the naive baseline (``naive``). See
docs/tracker.md."""
