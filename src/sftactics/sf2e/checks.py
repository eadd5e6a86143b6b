"""Checks (E2-02, E2-04, E2-07, E2-08, E2-09, E2-72).

A check is rolled in four steps: roll the d20 and gather the modifier's terms, total them, compare with the DC,
and read the degree of success (:mod:`sftactics.sf2e.degrees`). The modifier is a 2E
:class:`~sftactics.core.breakdown.Breakdown` (attribute + proficiency + bonuses + penalties, stacked by
:func:`sftactics.sf2e.modifiers.explain`) and the DC is one too, so both sides of the comparison explain
themselves.

* **Flat checks** use the bare d20, no modifiers of any kind. A flat check against DC 1 or less succeeds and one
  against DC 21 or more fails without a roll (E2-07); the natural 20/1 step still applies when a die is rolled
  (recovery checks read all four degrees).
* **Secret checks** are rolled for the player by the GM; :meth:`Check2e.player_view` is what the player is told.
  Fortune effects (a Hero Point reroll) still apply if the player knows a check is happening (E2-08).
* **Hero Point reroll** (E2-72): roll again and keep the *second* result, whichever is better. It is a fortune
  effect; ``Sf2eOptions.one_fortune_per_check`` forbids a second one on the same check.
"""

from __future__ import annotations

from dataclasses import dataclass, replace

from sftactics.core.breakdown import Breakdown
from sftactics.core.errors import RuleViolation
from sftactics.dice.source import DiceSource
from sftactics.sf2e.degrees import Degree, DegreeOfSuccess
from sftactics.sf2e.modifiers import base
from sftactics.sf2e.options import DEFAULT_OPTIONS, Sf2eOptions

#: Flat checks at or below this DC succeed without a roll; at or above :data:`FLAT_AUTO_FAIL` they fail (E2-07).
FLAT_AUTO_SUCCESS = 1
FLAT_AUTO_FAIL = 21

NO_MODIFIER = Breakdown("flat check (no modifiers)", 0, ())


def as_dc(dc: int | Breakdown, label: str = "DC") -> Breakdown:
    """A DC as a breakdown (a printed number becomes a single base term)."""
    if isinstance(dc, Breakdown):
        return dc
    return Breakdown(label, dc, (base(dc, label),))


@dataclass(frozen=True, slots=True)
class Check2e:
    """One check: what was rolled, the modifier and DC with their terms, and the degree reached.

    ``natural`` and ``total`` are None for an automatic flat-check result (no die rolled); then ``outcome`` is
    None too and ``automatic`` says why.
    """

    label: str
    modifier: Breakdown
    dc: Breakdown
    natural: int | None
    rolls: tuple[int, ...]
    total: int | None
    degree: Degree
    outcome: DegreeOfSuccess | None
    flat: bool = False
    secret: bool = False
    player_knows: bool = True
    fortune: bool = False
    automatic: str = ""
    note: str = ""

    @property
    def succeeded(self) -> bool:
        return self.degree.succeeded

    def describe(self) -> str:
        if self.outcome is None:
            return f"{self.label}: {self._dc_word} {self.dc.total}, {self.automatic}: {self.degree.label}"
        rolls = f" (rolled {list(self.rolls)})" if len(self.rolls) > 1 else ""
        mod = "" if self.flat else f" {self.modifier.total:+d}"
        note = f"; {self.note}" if self.note else ""
        return f"{self.label}: d20 {self.natural}{rolls}{mod} = {self.outcome.describe(self._dc_word)}{note}"

    @property
    def _dc_word(self) -> str:
        return "AC" if self.dc.label == "AC" else "DC"

    def player_view(self) -> str:
        """What the player learns: everything for an open check, nothing but that it happened for a secret one."""
        if not self.secret:
            return self.describe()
        return f"{self.label}: the GM rolled a secret check" if self.player_knows else ""

    def to_dict(self) -> dict[str, object]:
        return {
            "label": self.label,
            "natural": self.natural,
            "rolls": list(self.rolls),
            "modifier": self.modifier.to_dict(),
            "dc": self.dc.to_dict(),
            "total": self.total,
            "degree": self.degree.label,
            "flat": self.flat,
            "secret": self.secret,
            "fortune": self.fortune,
            "automatic": self.automatic,
            "note": self.note,
        }


def judge(
    label: str,
    modifier: Breakdown,
    dc: int | Breakdown,
    natural: int,
    *,
    rolls: tuple[int, ...] = (),
    flat: bool = False,
    secret: bool = False,
    player_knows: bool = True,
) -> Check2e:
    """Decide a check from a natural d20 already rolled (E2-02..04)."""
    if not 1 <= natural <= 20:
        raise ValueError(f"a natural d20 result is 1-20, not {natural}")
    d = as_dc(dc)
    total = natural + modifier.total
    outcome = DegreeOfSuccess(total, d.total, natural)
    return Check2e(
        label,
        modifier,
        d,
        natural,
        rolls or (natural,),
        total,
        outcome.degree,
        outcome,
        flat=flat,
        secret=secret,
        player_knows=player_knows,
    )


def roll_check(
    label: str,
    modifier: Breakdown,
    dc: int | Breakdown,
    dice: DiceSource,
    *,
    purpose: str = "",
    secret: bool = False,
    player_knows: bool = True,
) -> Check2e:
    """Roll a check: d20 + ``modifier`` against ``dc`` (E2-02). ``secret``: the GM rolls it (E2-08)."""
    natural = dice.d20(purpose or label)
    return judge(label, modifier, dc, natural, secret=secret, player_knows=player_knows)


def flat_check(dc: int, dice: DiceSource, *, label: str = "flat check", purpose: str = "") -> Check2e:
    """A flat check (E2-07): the bare d20 against ``dc``; automatic at DC <= 1 (success) and >= 21 (failure)."""
    d = as_dc(dc, f"{label} DC")
    if dc <= FLAT_AUTO_SUCCESS:
        return Check2e(
            label,
            NO_MODIFIER,
            d,
            None,
            (),
            None,
            Degree.SUCCESS,
            None,
            flat=True,
            automatic=f"DC {dc} is {FLAT_AUTO_SUCCESS} or less: automatic success (E2-07)",
        )
    if dc >= FLAT_AUTO_FAIL:
        return Check2e(
            label,
            NO_MODIFIER,
            d,
            None,
            (),
            None,
            Degree.FAILURE,
            None,
            flat=True,
            automatic=f"DC {dc} is {FLAT_AUTO_FAIL} or more: automatic failure (E2-07)",
        )
    return judge(label, NO_MODIFIER, d, dice.d20(purpose or label), flat=True)


def reroll(
    check: Check2e, dice: DiceSource, *, why: str = "Hero Point", options: Sf2eOptions = DEFAULT_OPTIONS
) -> Check2e:
    """Reroll ``check`` and keep the second result, better or worse (a fortune effect, E2-72).

    Refused for an automatic result (nothing was rolled), for a secret check the player does not know about
    (E2-08), and for a check already rerolled by a fortune effect (``options.one_fortune_per_check``).
    """
    if check.natural is None:
        raise RuleViolation("E2-07", f"{check.label} was decided without a roll; there is nothing to reroll")
    if check.secret and not check.player_knows:
        raise RuleViolation("E2-08", f"the player does not know {check.label} is happening, so cannot reroll it")
    if check.fortune and options.one_fortune_per_check:
        raise RuleViolation("E2-72", f"{check.label} was already rerolled by a fortune effect")
    natural = dice.d20(f"{check.label} ({why} reroll)")
    again = judge(
        check.label,
        check.modifier,
        check.dc,
        natural,
        rolls=(*check.rolls, natural),
        flat=check.flat,
        secret=check.secret,
        player_knows=check.player_knows,
    )
    return replace(again, fortune=True, note=f"{why}: rerolled {check.natural}, kept the second result (E2-72)")
