"""devices: an LED strip along the action row that lights the tile the player to move gets for free.

Modules: :mod:`devices.frames` (pure wire encoders: Adalight, WLED JSON), :mod:`devices.config`
(:class:`~devices.config.LedConfig`, validated), :mod:`devices.mapping` (rules state → one colour per
LED), :mod:`devices.ports` (finding and opening serial ports), :mod:`devices.detect` (which firmware
answers on a port), :mod:`devices.strip` (the strip interface: serial with keep-alive and reconnect,
virtual, null), :mod:`devices.follower` (keeps a strip in step with the game), :mod:`devices.live` (a strip following
the web companion's runtime off its thread, reporting status and picture to the page), :mod:`devices.fakes`
(emulated Adalight/WLED controllers on pseudo-terminals, for tests and demos) and :mod:`devices.cli`
(``table-companion leds …``). See docs/leds.md.

Nothing is imported here, so ``import devices`` stays cheap (pyserial loads only with a strip).
"""
