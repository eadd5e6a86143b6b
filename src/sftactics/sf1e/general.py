"""General rule terms that need neither a map nor a turn order (GEN-08..10, GEN-16, CF-02)."""

from __future__ import annotations

from fractions import Fraction

from sftactics.sf1e.statblock import Weapon

ROUND_SECONDS = 6
ROUNDS_PER_MINUTE = 10


def rounds_to_seconds(rounds: int) -> int:
    """One round is 6 seconds (GEN-16)."""
    return rounds * ROUND_SECONDS


def minutes_to_rounds(minutes: int) -> int:
    """Ten rounds make a minute (GEN-16)."""
    return minutes * ROUNDS_PER_MINUTE


def hours_to_rounds(hours: int) -> int:
    """An hour is 60 minutes, so 600 rounds (GEN-16)."""
    return hours * 60 * ROUNDS_PER_MINUTE


def is_significant_enemy(enemy_cr: Fraction | int, character_level: int) -> bool:
    """A foe whose CR is at most the character's level minus 4 is not significant (GEN-09): abilities that
    reward acting against enemies should not trigger against it. The GM may overrule."""
    return Fraction(enemy_cr) > character_level - 4


def insignificant_for_party(enemy_cr: Fraction | int, party_levels: list[int]) -> bool:
    """CF-02: foes at least 4 CR below the party's average level may be declared insignificant by the GM."""
    if not party_levels:
        return False
    average = Fraction(sum(party_levels), len(party_levels))
    return Fraction(enemy_cr) <= average - 4


def hands_needed(weapon: Weapon) -> int:
    """Longarms, heavy and sniper weapons and two-handed melee weapons need both hands; others one (GEN-10)."""
    if weapon.two_handed or weapon.category in ("longarm", "heavy", "sniper"):
        return 2
    if weapon.category in ("natural", "unarmed"):
        return 0
    return 1


def is_wielded(weapon: Weapon, hands_on_it: int, *, holstered: bool = False) -> bool:
    """A weapon is wielded only when held in as many hands as it needs; a holstered or sheathed weapon, or a
    two-handed weapon in one hand, is not (GEN-10). Natural weapons are always at hand."""
    if holstered:
        return False
    return hands_on_it >= hands_needed(weapon)
