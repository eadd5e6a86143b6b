"""Ruleset options for the 1st edition: every ambiguous rule or GM call the engine had to settle.

Each field names the inventory item it settles; the default is the inventory's suggested default (§22) unless
the field's description says otherwise. A table's house rules are a different set of options; tests pin both
readings. ``docs/options.md`` lists them for users.
"""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, ConfigDict, Field


class Sf1eOptions(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")

    default_ac_is_kac: bool = Field(
        True,
        description="ATK-08: an attack that does not say which AC it targets (e.g. untyped damage) targets KAC "
        "(the Compendium's wording). False: such attacks must name their AC.",
    )
    multi_type_split: Literal["half_each", "all_each"] = Field(
        "half_each",
        description="XREF (CRB weapon tables): a damage part with two types ('A & P') deals half of each type "
        "(odd point to the first type in reading order: kinetic before energy); 'all_each' applies each "
        "resistance to the whole part instead (a creature needs resistance to both to reduce it).",
    )
    incorporeal_halve_before_reduction: bool = Field(
        True, description="DMG-16: incorporeal halving is applied before DR and energy resistance."
    )
    temp_hp_stacking: Literal["highest", "add"] = Field(
        "highest",
        description="DMG-09: new temporary Hit Points replace the old ones only if higher ('highest'), "
        "or add to them ('add').",
    )
    stabilize_cost: Literal["formula", "three"] = Field(
        "formula",
        description="INJ-11 / CON-12: Resolve spent to stabilize: one quarter of maximum RP (min 1, max 3) "
        "per 'Injury and Death', or a flat 3 per the Dying condition's text.",
    )
    massive_damage_at_zero: Literal["hp_damage", "total"] = Field(
        "hp_damage",
        description="INJ-03(b): while at 0 HP, instant death from a single attack counts the damage that "
        "reaches Hit Points (after temporary HP and Stamina), or the attack's total damage.",
    )
    big_hit_first_costs: Literal[1, 2] = Field(
        1,
        description="INJ-14: Resolve lost for the first Hit Point damage of a round while dying: literally 1, "
        "even if the hit is over half maximum HP; 2 reads the big-hit clause as applying to the first hit too.",
    )
    zero_rp_grace: Literal["round_after_drop", "next_turn"] = Field(
        "round_after_drop",
        description="INJ-05: a creature with 0 RP when it first drops to 0 HP dies unless healed or stabilized by "
        "the end of its turn in the round after the one it dropped in ('round_after_drop'), or by the end of its "
        "next turn ('next_turn': dropping on an enemy's turn before its own, it dies at the end of that same "
        "round's turn; dropping on its own turn, at the end of its next one, as INJ-04 delays the RP loss).",
    )
    npc_without_rp_at_zero: Literal["dies", "three_rounds"] = Field(
        "dies",
        description="INJ-07: a creature with no Resolve Points reduced to 0 HP by lethal damage dies, or "
        "(optional rule) lingers unconscious and dies after 3 rounds unless healed; more damage kills it.",
    )
    npc_with_rp: Literal["dies", "pc_rules"] = Field(
        "dies",
        description="INJ-07: an NPC that has Resolve Points dies at 0 HP ('dies') or follows the player "
        "characters' dying rules ('pc_rules').",
    )
    negative_levels_to_zero_hp: Literal["dying", "unconscious"] = Field(
        "dying",
        description="ABL-10: when the -5 HP of new negative levels takes current HP to 0, treat it as "
        "reaching 0 HP (dying) or only as unconscious and stable.",
    )
    ability_pool_loss: Literal["lose", "clamp"] = Field(
        "lose",
        description="ABL-04 / ABL-05: when Constitution or key-ability damage lowers maximum SP or RP, the "
        "current value drops by the same amount ('lose': 4th level, 5 Con damage = 8 SP lost, EX-04), or is only "
        "trimmed to the new maximum ('clamp').",
    )
    negative_level_save_removes: Literal["all_from_source", "one"] = Field(
        "all_from_source",
        description="ABL-12: a successful daily save removes every temporary negative level of that source, or one.",
    )
    fatigued_thrown_damage: bool = Field(
        True,
        description="CON-17: fatigued's -1 also applies to thrown weapon damage, as exhausted's text says "
        "for its -3 (CON-15).",
    )
    initiative_is_ability_check: bool = Field(
        False,
        description="CF-03: initiative checks also take penalties to 'ability checks' (shaken, sickened, "
        "negative levels).",
    )
    helpless_prone_stack: bool = Field(
        True, description="MOD-19: helpless's +4 to melee attackers stacks with prone's -4 AC against melee."
    )
    combat_ends: Literal["one_side_left", "gm"] = Field(
        "one_side_left",
        description="CF-02: the combat ends by itself when only one side (or nobody) can fight on; 'gm': only "
        "the GM's end_combat ends it. Once it is over, the GM's damage, healing, conditions, effects, ability "
        "and rest commands still work.",
    )
    shared_square_on_recovery: Literal["share_until_moved", "nearest_free"] = Field(
        "share_until_moved",
        description="MOV-16 / GM call: a creature may end its move in a helpless creature's square; when the "
        "helpless one recovers (wakes, spends RP to stay in the fight) the two share the square until one of "
        "them moves, and a move must then end in a legal square ('share_until_moved'); 'nearest_free': the one "
        "that recovered is set at once in the nearest free square (no movement, no attacks of opportunity).",
    )
    noisy_combat_locates: bool = Field(
        True,
        description="SEN-05 / GM call: a combatant that is fighting in the open (not hiding, not invisible, not "
        "incorporeal) is heard well enough that any opponent with line of effect and working hearing knows its "
        "square (aware of location) without a check; False: ordinary hearing needs a Perception check.",
    )
    critical_dc_base: int = Field(
        10,
        description="SV-07 / XREF (CRB p. 181): weapon critical effect DC = this + half the weapon's item "
        "level + the wielder's key ability modifier (an NPC's printed DC wins).",
    )
    arc_can_strike_attacker: bool = Field(
        False,
        description="ATK-15 / XREF (CRB p. 182, Arc): the arc leaps to the creature nearest the target within "
        "10 ft (the attacker chooses among equally near ones); the text does not say whether the attacker "
        "itself can be that creature. False: never the attacker; True: the attacker too, when it is nearest.",
    )
    vulnerability_multiplier: float = Field(
        1.5,
        description="XREF (Alien Archive): a creature vulnerable to a damage type takes half again as much of it.",
    )
    weapon_specialization: bool = Field(
        True,
        description="GEN-14 / XREF (Weapon Specialization, CRB p. 163): characters flagged as specialized "
        "add their level to weapon damage (half their level with small arms and operative melee weapons).",
    )


DEFAULT_OPTIONS = Sf1eOptions()
