"""Objects taking damage (DMG-15, SV-11, CON-04; object HP and hardness are XREF X-12).

Unattended objects are damaged by damaging effects like creatures; objects someone holds or wears are not,
unless the effect says it affects objects. Hardness comes off every hit; an object below half its Hit Points is
broken, and at 0 it is destroyed.
"""

from __future__ import annotations

from dataclasses import dataclass, replace


@dataclass(frozen=True, slots=True)
class ObjectState:
    name: str
    hp: int
    max_hp: int
    hardness: int = 0
    item_level: int = 0

    @property
    def broken(self) -> bool:
        """Damaged beyond half its Hit Points (CON-04): more than half of the maximum has been lost."""
        return 2 * (self.max_hp - self.hp) > self.max_hp

    @property
    def destroyed(self) -> bool:
        return self.hp <= 0


@dataclass(frozen=True, slots=True)
class ObjectDamage:
    obj: ObjectState
    dealt: int
    lines: tuple[str, ...]


def damage_object(
    obj: ObjectState, amount: int, *, attended: bool = False, affects_objects: bool = False
) -> ObjectDamage:
    """Damage to an object: none to an attended object unless the effect affects objects (DMG-15);
    otherwise hardness is subtracted (MAN-11) and the rest comes off its Hit Points."""
    if attended and not affects_objects:
        return ObjectDamage(obj, 0, (f"{obj.name} is held or worn: the effect does not damage it [DMG-15]",))
    dealt = max(0, amount - obj.hardness)
    lines = [f"{obj.name}: {amount} damage - hardness {obj.hardness} = {dealt} [DMG-15]"]
    new = replace(obj, hp=max(0, obj.hp - dealt))
    if new.destroyed:
        lines.append(f"{obj.name} is destroyed (0 HP) [DMG-15]")
    elif new.broken and not obj.broken:
        lines.append(f"{obj.name} is broken (below half its {obj.max_hp} HP) [CON-04]")
    return ObjectDamage(new, dealt, tuple(lines))
