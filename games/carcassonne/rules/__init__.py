"""The rules engine of Hunters & Gatherers: pure Python (stdlib, datafile, games.api/errors).

:mod:`tiles` (tile geometry, the box profile), :mod:`state` (the immutable state with shared
structures), :mod:`moves` (notation), :mod:`engine` (legality, ``apply``, scoring), :mod:`legal`
(the lazy legal-move view, chance outcomes, the placement overview), :mod:`position` (position
documents and settings), :mod:`scoring` (breakdowns, projection, ranking) and :mod:`players`
(simulated players).
"""
