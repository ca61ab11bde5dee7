"""Errors of the LED strip package: every user mistake becomes one of these, with a one-line message."""

from __future__ import annotations

from datafile import DataFileError


class DeviceError(Exception):
    """Base class: a problem with the LED strip set-up that the user can fix."""


class ConfigError(DeviceError, DataFileError):
    """A bad LED configuration value. ``field`` names the setting, ``source`` the file it came from
    (empty for a value from elsewhere, e.g. a command-line flag); ``problem`` (= ``reason``) says
    what is wrong."""

    def __init__(self, field: str, problem: str, source: str | None = None) -> None:
        DataFileError.__init__(self, source or "", field, problem)
        self.problem = problem

    def with_field(self, field: str) -> ConfigError:
        """The same error reported under another name (e.g. the command-line flag the user typed)."""
        return ConfigError(field, self.problem, self.source)


class PortError(DeviceError):
    """A serial port that cannot be found or opened (unknown path, no hwgrep match, busy port)."""


class PortBusyError(PortError):
    """The port exists but another program holds it (opened with exclusive access)."""
