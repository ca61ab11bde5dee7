"""devices: an LED strip beside the table that lights what the game says (Tribes: the tile of the action
row the player to move gets for free, the others by cost).

Modules: :mod:`devices.frames` (pure wire encoders: Adalight, WLED JSON), :mod:`devices.config`
(:class:`~devices.config.LedConfig`, validated), :mod:`devices.looks` (one look per slot drawn into a
frame; the game's LED map, :class:`games.api.LedMap`, says the looks), :mod:`devices.ports` (finding
and opening serial ports), :mod:`devices.detect` (which firmware answers on a port),
:mod:`devices.strip` (the strip interface: serial with keep-alive and reconnect, virtual, null),
:mod:`devices.follower` (keeps a strip in step with the game), :mod:`devices.live` (a strip following
the runtime off its thread, reporting status and picture to the page), :mod:`devices.fakes`
(emulated Adalight/WLED controllers on pseudo-terminals, for tests and demos) and :mod:`devices.cli`
(``table-companion leds …``). See docs/leds.md.

Nothing is imported here, so ``import devices`` stays cheap (pyserial loads only with a strip).
"""
