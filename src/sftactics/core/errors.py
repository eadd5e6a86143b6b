"""The project's error hierarchy.

Every error a user can cause derives from :class:`SftError`, so the CLI can print it without a traceback.
"""

from __future__ import annotations


class SftError(Exception):
    """Base class for every error that is the user's to fix (bad file, illegal command, bad dice)."""


class RuleViolation(SftError):
    """A command or request breaks a rule. ``rule`` names the inventory item (e.g. ``"INJ-11"``)."""

    def __init__(self, rule: str, message: str) -> None:
        super().__init__(f"{message} [{rule}]")
        self.rule = rule
        self.message = message


class FileFormatError(SftError):
    """A file could not be read: names the file, the field (a dotted path) and what was expected."""

    def __init__(self, file: str, field: str, expected: str) -> None:
        where = f"{file}: {field}" if field else file
        super().__init__(f"{where}: {expected}")
        self.file = file
        self.field = field
        self.expected = expected


class CommandError(SftError):
    """A command is not well formed (an unknown type, a missing or mistyped field): names the field and what
    was expected. A command that is well formed but breaks a rule is a :class:`RuleViolation`."""

    def __init__(self, field: str, expected: str) -> None:
        super().__init__(f"command: {field}: {expected}" if field else f"command: {expected}")
        self.field = field
        self.expected = expected


class DiceError(SftError):
    """A dice expression is malformed, or a dice source cannot give a valid result."""
