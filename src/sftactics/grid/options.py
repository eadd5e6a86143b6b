"""Options for the geometry layer: every place where the rules leave the grid a choice.

Each field names the inventory item it settles. Defaults follow the inventory's suggested defaults (§22) where
there is one; where the grid had to settle a question the inventory does not list, the description says so.
"""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, ConfigDict, Field


class GridOptions(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")

    diagonal_count_resets: Literal["turn", "move_action"] = Field(
        "turn",
        description="MOV-10: the 1-2-1-2 diagonal count carries over between the move actions of one turn and "
        "starts again each turn ('turn'), or starts again with every move action ('move_action').",
    )
    hampered_diagonal_counts: bool = Field(
        True,
        description="MOV-10/MOV-17 (grid's own call): a diagonal step into hampered terrain costs a flat 3 "
        "squares (15 ft, doubled again per extra doubling) and still counts as a diagonal for the 1-2 "
        "alternation. False: it does not advance the alternation.",
    )
    double_move: Literal["separate", "pooled"] = Field(
        "separate",
        description="MOV-05 (grid's own call): a double move is two move actions, each within the speed and "
        "each ending in a legal square ('separate'); or one movement of up to twice the speed ('pooled').",
    )
    squeeze_speed: Literal["half", "quarter"] = Field(
        "half",
        description="MOV-19: squeezing costs double movement (half speed, AON reading: the entangled condition "
        "of squeezing is that same halving) or four times the movement ('quarter': half speed and, again, "
        "entangled's half speed).",
    )
    reach_weapon_threatens_adjacent: bool = Field(
        True,
        description="AOO-03: a reach weapon also threatens the squares adjacent to its wielder ('all squares "
        "you can reach'). False: it threatens only the squares beyond adjacent.",
    )
    line_along_wall_blocks: bool = Field(
        True,
        description="MOD-07 (CRB cover diagram #2): a line that runs along the border of a wall or a wall "
        "square counts as blocked. Note that this gives cover along a one-square-wide corridor.",
    )
    concealment_corner: Literal["best", "any"] = Field(
        "best",
        description="MOD-01: the attacker picks its most favourable corner for the concealment test, as for "
        "cover ('best'); 'any': one concealing line from any corner is enough.",
    )
    low_obstacle_within: Literal["obstacle", "attacker"] = Field(
        "obstacle",
        description="MOD-10: a low obstacle gives cover only if the defender is within 30 ft of it "
        "('obstacle'), or only if the defender is within 30 ft of the attacker ('attacker').",
    )
    flank_partner: Literal["hostile_to_target", "ally_of_attacker"] = Field(
        "hostile_to_target",
        description="MOD-17: the creature on the far side provides flanking if it threatens the target and is "
        "hostile to it ('hostile_to_target'), or only if it is also on the attacker's side.",
    )
    range_penalty: Literal["fraction", "full"] = Field(
        "fraction",
        description="ATK-10: -2 per range increment beyond the first counting a started increment "
        "(-2 x (ceil(d/inc) - 1), 'fraction') or only full increments (-2 x (floor(d/inc) - 1)).",
    )
    scatter_rotation: Literal["clockwise", "counterclockwise"] = Field(
        "clockwise",
        description="ATK-13: scatter direction 1 points back toward the thrower and 2..8 turn in 45-degree "
        "steps clockwise as seen on the map (north up), or counterclockwise.",
    )
    guarded_step_into_difficult: bool = Field(
        False,
        description="ACT-33: a guarded step may enter a square that costs more than 5 ft (difficult terrain). "
        "Default: no.",
    )
    flight_descent_extra_ft: int = Field(
        0,
        ge=0,
        description="MOV-32 (gap): extra feet for each square flown downward. Default 0 (descending costs "
        "the normal movement).",
    )
    default_maneuverability: Literal["clumsy", "average", "perfect"] = Field(
        "average",
        description="MOV-31: fly maneuverability of a creature whose statistics do not give one (AON).",
    )


DEFAULT_OPTIONS = GridOptions()
