"""Light, the pure rules: the light on a square from its base level and the light sources reaching it, and what
light does to one observer's eyes (VIS-01..08, MOD-06).

Nothing here knows where anyone stands: the caller gives the squares, the map and the distances.
``sf1e.senses`` imports every public name of this module, so code may import them from either.

Light (VIS-01..08)
------------------
A square's light is its base level raised by every :class:`LightSource` reaching it: within the radius the
source's own level, and dim light in a band just beyond it (VIS-03; the band is as wide as the radius unless
the source says otherwise: the seeds give no width, this is the decision). Light sources never lower light,
and an invisible source still lights (VIS-08). Source radii are equipment data (VIS-07): parameters here.
:func:`vision_concealment` is the concealment light gives against one observer's eyes: 20% in dim light
without low-light vision or darkvision, 50% in darkness without darkvision, none against blindsight (VIS-03 as
§22 reads it, VIS-04, MOD-06). The grid's ``light_concealment`` answers the same question for attacks.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, replace

from sftactics.core.errors import SftError
from sftactics.grid.geometry import Square, distance_ft
from sftactics.grid.map import GridMap, Light
from sftactics.sf1e.awareness import CONCEALMENT, TOTAL_CONCEALMENT, lost_mechanisms
from sftactics.sf1e.creature_senses import Senses


# =========================================================================================== light
@dataclass(frozen=True, slots=True)
class LightSource:
    """A light on the map (VIS-07: radii and levels are equipment data, given here). Within ``radius_ft`` of
    ``origin`` the light is ``level``; just beyond, in a band ``dim_band_ft`` wide (default: as wide as the
    radius), it is dim (VIS-03). ``invisible``: the source itself is invisible; its light is not (VIS-08)."""

    origin: Square
    radius_ft: int
    level: Light = Light.NORMAL
    kind: str = ""
    dim_band_ft: int | None = None
    invisible: bool = False

    def __post_init__(self) -> None:
        if self.radius_ft < 0 or (self.dim_band_ft is not None and self.dim_band_ft < 0):
            raise SftError(f"a light's radius cannot be negative ({self.kind or 'light'} at {self.origin})")
        if self.level is Light.DARK:
            raise SftError("a light source gives light: darkness effects are not light sources (VIS-07)")

    def level_at(self, square: Square) -> Light:
        """The light this source alone gives ``square`` (DARK when it does not reach)."""
        d = distance_ft(self.origin, square)
        if d <= self.radius_ft:
            return self.level
        band = self.radius_ft if self.dim_band_ft is None else self.dim_band_ft
        if self.level > Light.DIM and d <= self.radius_ft + band:
            return Light.DIM
        return Light.DARK


BaseLight = Light | Mapping[Square, Light] | GridMap


def _base_at(base: BaseLight, square: Square) -> Light:
    if isinstance(base, Light):
        return base
    if isinstance(base, GridMap):
        return base.light_at(square)
    return base.get(square, Light.NORMAL)


def light_level_at(square: Square, base_levels: BaseLight, sources: Iterable[LightSource] = ()) -> Light:
    """The light on ``square`` (VIS-01..03, VIS-07, VIS-08): its base level (one level for everywhere, a
    mapping with normal light for squares it leaves out, or a map's own light) raised by each source reaching
    it. Sources never lower the light."""
    level = _base_at(base_levels, square)
    for s in sources:
        level = max(level, s.level_at(square))
    return Light(level)


def lit(grid: GridMap, sources: Iterable[LightSource]) -> GridMap:
    """``grid`` with its light raised by ``sources``, so the grid's concealment rules see the lights."""
    srcs = tuple(sources)
    if not srcs:
        return grid
    levels = grid.light_array.copy()
    for s in srcs:  # only the squares a source can reach: the rest of a large map keeps its own light
        reach = s.radius_ft + (s.radius_ft if s.dim_band_ft is None else s.dim_band_ft)
        r = reach // 5 + 1
        ox, oy = s.origin
        for y in range(max(0, oy - r), min(grid.height, oy + r + 1)):
            for x in range(max(0, ox - r), min(grid.width, ox + r + 1)):
                levels[y, x] = max(int(levels[y, x]), int(s.level_at((x, y))))
    return replace(grid, light=memoryview(levels.tobytes()).cast("B"))


def sees_at(level: Light, senses: Senses, *, distance_ft: int | None = None, blinded: bool = False) -> bool:
    """Whether the observer's vision works on something in this light (VIS-01..05): any light but darkness;
    darkness only with darkvision reaching it."""
    if blinded or not senses.vision:
        return False
    return level is not Light.DARK or senses.darkvision_reaches(distance_ft)


def effective_light(level: Light, senses: Senses, *, distance_ft: int | None = None) -> Light:
    """The light as this observer's eyes take it: low-light vision sees dim light as normal (VIS-06);
    darkvision within range sees darkness and dim light as if lit, in black and white (VIS-05)."""
    if level is Light.DIM and (senses.low_light_vision or senses.darkvision_reaches(distance_ft)):
        return Light.NORMAL
    if level is Light.DARK and senses.darkvision_reaches(distance_ft):
        return Light.NORMAL
    return level


def vision_concealment(level: Light, senses: Senses, *, distance_ft: int | None = None, blinded: bool = False) -> int:
    """Concealment (percent) light gives a target against this observer (VIS-03, VIS-04, MOD-06): none in
    bright or normal light; 20 in dim light unless low-light vision or darkvision (§22 reading of VIS-03);
    50 in darkness unless darkvision reaches; none at all against blindsight within range. Blinded: 50 (but
    blindsight still works)."""
    if senses.blindsight_reaches(distance_ft, lost_mechanisms(("blinded",) if blinded else ())):
        return 0
    if blinded or not senses.vision:
        return TOTAL_CONCEALMENT
    seen = effective_light(level, senses, distance_ft=distance_ft)
    if seen is Light.DARK:
        return TOTAL_CONCEALMENT
    if seen is Light.DIM:
        return CONCEALMENT
    return 0


def dim_light_allows_stealth(level: Light, senses: Senses, *, distance_ft: int | None = None) -> bool:
    """In dim light a creature may try Stealth against observers without low-light vision, darkvision or
    blindsight (VIS-03); in darkness against those without darkvision or blindsight."""
    return vision_concealment(level, senses, distance_ft=distance_ft) > 0
