"""tracker: from what the camera sees to committed moves, for any game.

Settled Observations are turned into facts by the game's tracker policy (:mod:`tracker.policy`),
fused over a few frames (:mod:`tracker.evidence`), compared with the table the game's state predicts
(:mod:`tracker.facts`), and explained by short chains of legal moves the policy proposes
(:mod:`tracker.search`). :class:`tracker.tracker.Tracker` decides when to commit, when to ask (a
prompt) and when to say the table and the game disagree (a desync); :class:`tracker.link.TrackerLink`
carries its decisions out on the game runtime. No OpenCV, no Flask: frames and pages are someone
else's business.
"""
