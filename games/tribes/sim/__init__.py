"""Tribes' synthetic table (tooling, never imported by the product): the renderer (``render``,
``compose``, ``scene``, ``pieces``, ``truth``), procedural art (``packart``, ``packs``), whole games on
video (``video``, ``playback``, ``source``), random conditions (``randomize``), the noise model of the
tracker's simulations (``noise``), the evaluation on rendered sessions (``evaluation``) and the
``render`` commands (``cli``). See docs/renderer.md."""
