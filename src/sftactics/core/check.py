"""The d20 check (GEN-01): d20 + modifiers against a target number, meets-or-beats succeeds.

Natural 1 and natural 20 decide attack rolls and saving throws whatever the total (ATK-05, SV-02); skill and
ability checks have no automatic results. Roll-twice effects are declared before the roll (GEN-06); a reroll is
offered once the first result is known and kept only if better (GEN-05); only one such effect applies to a roll,
and "take better" with "take worse" cancel into a single roll that cannot be rerolled (GEN-07).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from enum import StrEnum

from sftactics.core.breakdown import Breakdown
from sftactics.dice.source import DiceSource


class CheckKind(StrEnum):
    ATTACK = "attack"
    SAVE = "save"
    SKILL = "skill"
    ABILITY = "ability"
    INITIATIVE = "initiative"
    CASTER_LEVEL = "caster level"

    @property
    def natural_results(self) -> bool:
        """Attack rolls and saves: natural 1 fails, natural 20 succeeds."""
        return self in (CheckKind.ATTACK, CheckKind.SAVE)


@dataclass(frozen=True, slots=True)
class RollMode:
    """Effects on how the d20 is rolled.

    ``better``: roll twice, take the better (declared before rolling). ``worse``: forced to roll twice and take
    the worse. ``reroll``: asked with the first result; returning True rerolls once, keeping the better.
    """

    better: bool = False
    worse: bool = False
    reroll: Callable[[int], bool] | None = None


NORMAL = RollMode()


@dataclass(frozen=True, slots=True)
class CheckResult:
    kind: CheckKind
    bonus: Breakdown
    dc: int
    natural: int
    rolls: tuple[int, ...]
    total: int
    success: bool
    automatic: str = ""  # "natural 20" / "natural 1" when that decided the outcome
    note: str = ""

    def describe(self) -> str:
        shown = self.natural if len(self.rolls) == 1 else f"{self.natural} (from {list(self.rolls)})"
        auto = f", {self.automatic}" if self.automatic else ""
        verdict = "success" if self.success else "failure"
        return f"d20 {shown} {self.bonus.total:+d} = {self.total} vs {self.dc}: {verdict}{auto}"

    def to_dict(self) -> dict[str, object]:
        return {
            "kind": str(self.kind),
            "natural": self.natural,
            "rolls": list(self.rolls),
            "bonus": self.bonus.to_dict(),
            "total": self.total,
            "dc": self.dc,
            "success": self.success,
            "automatic": self.automatic,
            "note": self.note,
        }


def roll_d20(dice: DiceSource, purpose: str, mode: RollMode = NORMAL) -> tuple[int, tuple[int, ...], str]:
    """The kept natural d20, every d20 rolled, and a note on the roll mode used."""
    if mode.better and mode.worse:
        r = dice.d20(purpose)
        return r, (r,), "roll twice (better) and (worse) cancel: one roll, no reroll (GEN-07)"
    if mode.better or mode.worse:
        a, b = dice.d20(purpose), dice.d20(purpose)
        kept = max(a, b) if mode.better else min(a, b)
        return (
            kept,
            (a, b),
            "rolled twice, took the " + ("better (GEN-06)" if mode.better else "worse (GEN-06)"),
        )
    r = dice.d20(purpose)
    if mode.reroll is not None and mode.reroll(r):
        r2 = dice.d20(purpose + " (reroll)")
        return max(r, r2), (r, r2), "rerolled, kept the better (GEN-05)"
    return r, (r,), ""


def resolve(
    kind: CheckKind,
    bonus: Breakdown,
    dc: int,
    dice: DiceSource,
    *,
    purpose: str = "",
    mode: RollMode = NORMAL,
) -> CheckResult:
    """Roll a d20 check of ``kind`` with ``bonus`` against ``dc``."""
    natural, rolls, note = roll_d20(dice, purpose or str(kind), mode)
    return judge(kind, bonus, dc, natural, rolls, note)


def judge(
    kind: CheckKind, bonus: Breakdown, dc: int, natural: int, rolls: tuple[int, ...] = (), note: str = ""
) -> CheckResult:
    """Decide a check from an already-rolled natural d20."""
    total = natural + bonus.total
    success = total >= dc
    automatic = ""
    if kind.natural_results:
        if natural == 20:
            automatic, success = "natural 20", True
        elif natural == 1:
            automatic, success = "natural 1", False
    return CheckResult(kind, bonus, dc, natural, rolls or (natural,), total, success, automatic, note)
