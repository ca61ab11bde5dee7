"""The Stone Age rules engine: pure Python (stdlib, datafile, games.api/games.errors only).

Modules: ``profile`` (the box profile with provenance), ``state`` (the immutable State and its mutable
twin Work), ``moves`` (moves and their notation), ``engine`` (legality with clauses, transitions,
legal moves, chance, the fast playout), ``scoring`` (the final scoring and its breakdown, the
ranking), ``helpers`` (roll helper, feeding check, yield distributions), ``prompt`` (what a position
waits for), ``position`` (JSON positions) and ``players`` (random and greedy). Clauses ``S-…``:
docs/stoneage-rules.md.
"""
