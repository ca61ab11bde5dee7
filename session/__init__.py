"""session: the game runtime (:mod:`session.runtime`, the one object the tracker, the page and the LED
strip attach to) and its crash-safe live journal (:mod:`session.journal`), for any game."""
