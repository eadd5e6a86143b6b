"""The terminal the CLI writes to: rich at a terminal, and output that is never cut when it goes to a file or
another program (tables get as much width as they need instead of ending cells in "…")."""

from __future__ import annotations

from typing import Any

from rich.console import Console, ConsoleDimensions

#: Width given to output that is not a terminal: wide enough for every table the CLI prints.
PIPED_WIDTH = 400


class CliConsole(Console):
    """A rich console whose width, when it is not writing to a terminal, is :data:`PIPED_WIDTH` (unless the
    ``COLUMNS`` environment variable or an explicit width says otherwise)."""

    @property
    def size(self) -> ConsoleDimensions:
        d = super().size
        columns = self._environ.get("COLUMNS") or ""
        if self._width is None and not self.is_terminal and not columns.isdigit():
            return ConsoleDimensions(max(d.width, PIPED_WIDTH), d.height)
        return d

    @size.setter
    def size(self, new_size: tuple[int, int]) -> None:
        self._width, self._height = new_size


def console(*, stderr: bool = False) -> Console:
    return CliConsole(stderr=stderr, highlight=False, soft_wrap=True)


def hide_flag_types() -> None:
    """Help without a ``<bool>`` type after on/off flags such as ``--json`` (typer shows one for every option):
    a flag takes no value, so its type column stays empty."""
    from typer.core import TyperOption

    if getattr(TyperOption.display_type_rich, "_sftactics", False):
        return
    shown = TyperOption.display_type_rich

    def display_type_rich(self: TyperOption, ctx: Any) -> str | None:
        return None if self.is_flag and self.metavar is None else shown(self, ctx)

    display_type_rich._sftactics = True  # type: ignore[attr-defined]
    TyperOption.display_type_rich = display_type_rich  # type: ignore[method-assign]
