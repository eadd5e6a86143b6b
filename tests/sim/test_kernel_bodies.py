"""The compiled kernel on what a creature's body brings to a fight (``sftactics.sim.kernel.bodies``): the same
dice, the same fight as the engine, with the simple and the tactical policy, on rooms where it matters.

* **knockdown**: a critical hit knocks the target prone (ATK-15, MOD-18); prone gives -4 to its melee attacks,
  +4 AC against ranged attacks and -4 against melee ones (CON-29); a creature may also start prone.
* **critical effects the engine only records** (wound, injection, an unknown name): no dice, no change.
"""

from __future__ import annotations

import random
from functools import cache
from typing import Any

import pytest
from hypothesis import event, given
from hypothesis import strategies as st
from hypothesis.control import currently_in_test_context

from sftactics.encounter.state import Encounter
from sftactics.sf1e.options import Sf1eOptions
from sftactics.sf1e.state import ConditionInstance
from sftactics.sim.kernel.model import compile_encounter, unsupported
from sftactics.sim.kernel.run import kernel_fight

from .test_kernel import FIGHTS, GUNNER, SCRIPT_LENGTH, _build, assert_same_fight, scripts

# A brute whose staff knocks down on a critical hit (melee first), with a pistol for when it cannot reach; and
# a sniper whose rifle is first (it shoots prone targets at +4 AC) and whose knife wounds (recorded only).
BASHER: dict[str, Any] = {
    "name": "Test Basher",
    "kind": "npc",
    "cr": "3",
    "abilities": {"str": 4, "dex": 1, "con": 2, "int": 0, "wis": 0, "cha": 0},
    "eac": 14,
    "kac": 16,
    "saves": {"fort": 6, "ref": 3, "will": 2},
    "initiative": 1,
    "hp": 40,
    "weapons": [
        {"name": "thunder staff", "category": "basic_melee", "damage": "1d8+5 B", "attack_bonus": 10,
         "critical": "Knockdown", "item_level": 3},
        {"name": "scrap pistol", "category": "small_arm", "damage": "1d4+3 P", "attack_bonus": 8, "range_ft": 20,
         "capacity": 6, "item_level": 1},
    ],
}  # fmt: skip
SNIPER: dict[str, Any] = {
    **GUNNER,
    "name": "Test Sniper",
    "weapons": [
        {"name": "hunting rifle", "category": "longarm", "damage": "1d8+3 P", "attack_bonus": 9, "range_ft": 60,
         "critical": "Knockdown", "capacity": 6, "usage": 1, "item_level": 2},
        {"name": "barbed knife", "category": "basic_melee", "damage": "1d4+2 S", "attack_bonus": 7,
         "critical": "Wound", "item_level": 1},
    ],
}  # fmt: skip


@cache
def knockabout() -> Encounter:
    """A level-8 mystic (a carbon staff that knocks down) and a sniper (a rifle that knocks down) against two
    bashers (staves that knock down), one of which starts prone: prone attackers and targets, in melee and
    at range."""
    room = "############\n#..........#\n#....o.....#\n#..........#\n#.....o....#\n#..........#\n############\n"
    return _build(
        "knockabout",
        room,
        [
            {"id": "Sorin", "side": "crew", "statblock": "pregen-mystic-8", "at": [2, 2],
             "state": {"hp": 30, "sp": 10}},
            {"id": "Sniper", "side": "crew", "statblock": SNIPER, "at": [1, 4]},
            {"id": "Basher 1", "side": "gang", "statblock": BASHER, "at": [9, 2]},
            {"id": "Basher 2", "side": "gang", "statblock": BASHER, "at": [9, 4],
             "state": {"conditions": [{"name": "prone"}]}},
        ],
    )  # fmt: skip


# Scripts with many natural 20s (critical hits, so knockdowns): a head hypothesis picks, then a tail where a
# fifth of the values are 20.
@st.composite
def crit_scripts(draw: st.DrawFn) -> list[int]:
    head = draw(st.lists(st.integers(1, 20), max_size=30))
    rng = random.Random(draw(st.integers(0, 2**32 - 1)))
    tail = [20 if rng.random() < 0.2 else rng.randint(1, 20) for _ in range(SCRIPT_LENGTH)]
    return head + tail


def _knockdowns(enc: Encounter, values: list[int], policy: str) -> int:
    engine = assert_same_fight(enc, values, policy=policy)
    # nobody stands up (the policies never need to), so who is prone at the end and was not at the start fell
    end = engine.fight.state
    falls = sum(
        1 for c in end.combatants.values() if c.creature.has("prone") and not enc.get(c.id).creature.has("prone")
    )
    if currently_in_test_context():
        event(f"knockdowns: {min(falls, 3)}")
    return falls


def test_the_kernel_plays_knockdown_and_starting_prone() -> None:
    enc = knockabout()
    assert unsupported(enc) == []
    assert enc.get("Basher 2").creature.has("prone")
    m = compile_encounter(enc).model
    assert list(m.prone0) == [False, False, False, True]
    # the plain tables are those of upright creatures, the prone ones differ by CON-29's numbers
    sorin, basher = 0, 3
    assert m.pr_atk[sorin, 0, basher, 0] == m.atk[sorin, 0, basher]
    assert m.pr_ac[sorin, 0, basher, 2] == m.ac[sorin, 0, basher] - 4  # melee against a prone target
    assert m.pr_atk[basher, 0, sorin, 4] == m.atk[basher, 0, sorin] - 4  # a prone attacker in melee
    sniper = 1
    assert m.pr_ac[sniper, 0, basher, 2] == m.ac[sniper, 0, basher] + 4  # ranged against a prone target


@pytest.mark.rule("ATK-15", "MOD-18", "CON-29", "ATK-14")
@FIGHTS
@given(values=crit_scripts())
def test_same_dice_same_fight_knockdown_simple(values: list[int]) -> None:
    _knockdowns(knockabout(), values, "simple")


@pytest.mark.rule("ATK-15", "MOD-18", "CON-29", "ATK-14")
@FIGHTS
@given(values=crit_scripts())
def test_same_dice_same_fight_knockdown_tactical(values: list[int]) -> None:
    _knockdowns(knockabout(), values, "tactical")


@pytest.mark.rule("ATK-15", "MOD-18", "CON-29")
def test_a_knockdown_in_a_fixed_script() -> None:
    # many natural 20s early: someone is knocked down, and both fights agree
    def script(seed: int) -> list[int]:
        rng = random.Random(seed)
        return [20 if i % 3 == 0 else rng.randint(1, 20) for i in range(SCRIPT_LENGTH)]

    values = script(7)
    assert _knockdowns(knockabout(), values, "simple") >= 1
    assert sum(_knockdowns(knockabout(), script(seed), "tactical") for seed in range(8, 12)) >= 1
    # the kernel's log names the fall (condition code 6)
    log = kernel_fight(knockabout(), seed=0, script=values, max_rounds=12)
    assert any(row[3] == 6 for row in log.of_kind("condition"))


def test_a_creature_immune_to_prone_stays_up() -> None:
    enc = knockabout()
    b1 = enc.get("Basher 1")
    stat = b1.creature.stat.model_copy(update={"immunities": frozenset({"prone"})})
    b1 = b1.model_copy(update={"creature": b1.creature.model_copy(update={"stat": stat})})
    enc = enc.model_copy(update={"combatants": {**enc.combatants, "Basher 1": b1}})
    assert compile_encounter(enc).model.immune_prone.tolist() == [False, False, True, False]


def test_prone_from_the_start_is_not_refused_but_other_conditions_are() -> None:
    enc = knockabout()
    b2 = enc.get("Basher 2")
    cr = b2.creature
    tangled = cr.with_state(conditions=(*cr.state.conditions, ConditionInstance(name="entangled")))
    b2 = b2.model_copy(update={"creature": tangled})
    enc = enc.model_copy(update={"combatants": {**enc.combatants, "Basher 2": b2}})
    assert any("entangled" in why for why in unsupported(enc))


# ---------------------------------------------------------------- grenades of every kind
def _grenade(name: str, damage: str, size: int, **area: Any) -> dict[str, Any]:
    return {"name": name, "category": "grenade", "damage": damage, "attack_bonus": 8, "range_ft": 20,
            "thrown": True, "item_level": 4, "area": {"shape": "burst", "size_ft": size, **area}}  # fmt: skip


SCREAMER = _grenade("screamer grenade I", "1d10 So", 15, on_save="partial",
                    riders=[{"condition": "deafened", "minutes": "1d4"}])  # fmt: skip
INCENDIARY = _grenade("incendiary grenade I", "1d6 F", 5, on_save="partial",
                      riders=[{"condition": "burning", "value": "1d4"}])  # fmt: skip
CRYO = _grenade("cryo grenade I", "1d8 C", 10, on_save="partial", riders=[{"condition": "staggered", "rounds": "1"}])
CHOKE = _grenade("choke bomb", "1d6 A", 10, save="fort", on_save="negates", dc=13,
                 riders=[{"condition": "staggered", "rounds": "1d2"}])  # fmt: skip
MINE = _grenade("shrapnel mine", "1d4 P", 10, save=None,
                riders=[{"condition": "burning"}, {"condition": "deafened", "rounds": "1d3"}])  # fmt: skip
MIND = _grenade("mind bomb", "1d6", 10, save="will", on_save="half", dc=14)
_SIDEARMS = [
    {"name": "scrap pistol", "category": "small_arm", "damage": "1d4+3 P", "attack_bonus": 8, "range_ft": 20,
     "capacity": 6, "item_level": 1},
    {"name": "baton", "category": "basic_melee", "damage": "1d4+3 B", "attack_bonus": 8, "item_level": 1},
]  # fmt: skip
BOMBER: dict[str, Any] = {
    "name": "Test Bomber",
    "kind": "npc",
    "cr": "3",
    "abilities": {"str": 1, "dex": 4, "con": 2, "int": 0, "wis": 0, "cha": 0},
    "eac": 14,
    "kac": 15,
    "saves": {"fort": 5, "ref": 5, "will": 2},
    "initiative": 4,
    "hp": 40,
    "weapons": [SCREAMER, CRYO, INCENDIARY, CHOKE, *_SIDEARMS],
}
BOMBER_2: dict[str, Any] = {**BOMBER, "name": "Test Bomber 2", "weapons": [MINE, MIND, CHOKE, INCENDIARY, *_SIDEARMS]}


@cache
def firebombs() -> Encounter:
    """Three level-4 characters close together against two bombers whose grenades burn, stagger and deafen on a
    failed save, with Reflex, Fortitude and Will saves, half, partial and negates, and one without a save."""
    room = "##############\n#............#\n#............#\n#............#\n#............#\n##############\n"
    return _build(
        "firebombs",
        room,
        [
            {"id": "Krask", "side": "party", "statblock": "pregen-soldier-4", "at": [2, 2]},
            {"id": "Nyx", "side": "party", "statblock": "pregen-operative-4", "at": [2, 3]},
            {"id": "Vela", "side": "party", "statblock": "pregen-envoy-4", "at": [3, 2]},
            {"id": "Bomber 1", "side": "gang", "statblock": BOMBER, "at": [9, 1]},
            {"id": "Bomber 2", "side": "gang", "statblock": BOMBER_2, "at": [9, 4]},
        ],
    )


def test_the_kernel_plays_grenades_of_every_kind() -> None:
    enc = firebombs()
    assert unsupported(enc) == []
    m = compile_encounter(enc).model
    b1 = 3
    assert m.g_mode[b1, 0].tolist() == [1, 1]  # screamer: Reflex, partial
    assert m.g_mode[b1, 3].tolist() == [0, 2]  # choke bomb: Fortitude, negates
    assert m.g_mode[4, 0].tolist() == [-1, 0]  # the mine allows no save


def test_grenades_the_kernel_leaves_to_the_engine() -> None:
    blind = _grenade("flash grenade I", "0", 5, on_save="negates", riders=[{"condition": "blinded", "rounds": "1d4"}])
    forever = _grenade("glue bomb", "1d4", 5, riders=[{"condition": "staggered"}])
    for g, why in ((blind, "blinded"), (forever, "until removed")):
        enc = _build("odd grenade", "######\n#....#\n#....#\n######\n", [
            {"id": "A", "side": "a", "statblock": {**BOMBER, "weapons": [g]}, "at": [1, 1]},
            {"id": "B", "side": "b", "statblock": "pregen-soldier-4", "at": [3, 2]},
        ])  # fmt: skip
        assert any(why in reason for reason in unsupported(enc)), why


@pytest.mark.rule("ATK-12", "ATK-13", "EFF-02", "SV-09", "CON-05", "CON-33", "MOD-08")
@FIGHTS
@given(values=scripts())
def test_same_dice_same_fight_grenades_of_every_kind_simple(values: list[int]) -> None:
    assert_same_fight(firebombs(), values)


@pytest.mark.rule("ATK-12", "ATK-13", "EFF-02", "SV-09", "CON-05", "CON-33", "MOD-08")
@FIGHTS
@given(values=scripts())
def test_same_dice_same_fight_grenades_of_every_kind_tactical(values: list[int]) -> None:
    assert_same_fight(firebombs(), values, policy="tactical")


# ---------------------------------------------------------------- nonlethal damage
BRAWLER: dict[str, Any] = {
    "name": "Test Brawler",
    "kind": "npc",
    "cr": "2",
    "abilities": {"str": 4, "dex": 2, "con": 2, "int": 0, "wis": 0, "cha": 0},
    "eac": 13,
    "kac": 15,
    "saves": {"fort": 5, "ref": 4, "will": 1},
    "initiative": 2,
    "hp": 30,
    "rp": 2,
    "weapons": [
        {"name": "pulse gauntlet", "category": "basic_melee", "damage": "1d6+6 B", "attack_bonus": 9,
         "nonlethal": True, "item_level": 2},
        {"name": "stun pistol", "category": "small_arm", "damage": "1d4+4 E", "attack_bonus": 8, "range_ft": 30,
         "nonlethal": True, "capacity": 6, "item_level": 1},
    ],
}  # fmt: skip
# A construct immune to nonlethal damage (it negates it, X-22) whose claws are lethal.
GOLEM: dict[str, Any] = {
    **{k: v for k, v in BRAWLER.items() if k != "rp"},
    "name": "Test Golem",
    "immunities": ["nonlethal"],
    "weapons": [{"name": "slam", "category": "natural", "damage": "1d8+4 B", "attack_bonus": 9}],
}


@cache
def knockout() -> Encounter:
    """Two level-2 characters (one punching: an unarmed strike is nonlethal) against a brawler whose gauntlet and
    pistol deal nonlethal damage and a golem immune to it: characters knocked out at exactly 0 HP, stable, who
    spend Resolve to stay in the fight (INJ-12, INJ-21); lethal damage on a stable character makes it dying."""
    room = "##########\n#........#\n#........#\n#........#\n##########\n"
    return _build(
        "knockout",
        room,
        [
            {"id": "Krask", "side": "crew", "statblock": "pregen-soldier-2", "at": [1, 1]},
            {"id": "Vela", "side": "crew", "statblock": "pregen-envoy-2", "at": [1, 3]},
            {"id": "Brawler", "side": "gang", "statblock": BRAWLER, "at": [7, 1]},
            {"id": "Golem", "side": "gang", "statblock": GOLEM, "at": [7, 3]},
        ],
    )


def test_the_kernel_plays_nonlethal_weapons() -> None:
    enc = knockout()
    assert unsupported(enc) == []
    comp = compile_encounter(enc)
    m = comp.model
    brawler = comp.ids.index("Brawler")
    assert bool(m.prof_nl[m.w_prof[brawler, 0]]) and not m.prof_nl[m.w_prof[comp.ids.index("Golem"), 0]]
    golem = comp.ids.index("Golem")
    p = m.w_prof[brawler, 0]
    assert m.mit[golem, p, 8] == 0 and m.neg[golem, p, 8]  # immune to nonlethal damage


@pytest.mark.rule("DMG-10", "DMG-13", "INJ-12", "INJ-21", "INJ-15", "X-22")
@FIGHTS
@given(values=scripts())
def test_same_dice_same_fight_nonlethal_simple(values: list[int]) -> None:
    assert_same_fight(knockout(), values)


@pytest.mark.rule("DMG-10", "DMG-13", "INJ-12", "INJ-21", "INJ-15", "X-22")
@FIGHTS
@given(values=scripts())
def test_same_dice_same_fight_nonlethal_tactical(values: list[int]) -> None:
    assert_same_fight(knockout(), values, policy="tactical")


# ---------------------------------------------------------------- NPCs at 0 HP
MEDIC: dict[str, Any] = {**BRAWLER, "name": "Test Medic", "rp": 0, "skills": {"medicine": 8},
                         "weapons": [{"name": "scalpel", "category": "basic_melee", "damage": "1d4+3 S",
                                      "attack_bonus": 8}]}  # fmt: skip
LETHAL_BRAWLER: dict[str, Any] = {**BRAWLER, "name": "Test Thug", "weapons": [
    {"name": "club", "category": "basic_melee", "damage": "1d6+5 B", "attack_bonus": 9}]}  # fmt: skip
NO_RP_THUG: dict[str, Any] = {**LETHAL_BRAWLER, "name": "Test Lackey", "rp": 0}


def _gang(options: Sf1eOptions) -> Encounter:
    room = "##########\n#........#\n#........#\n#........#\n##########\n"
    enc = _build(
        "last breath",
        room,
        [
            {"id": "Krask", "side": "crew", "statblock": "pregen-soldier-4", "at": [1, 1]},
            {"id": "Vela", "side": "crew", "statblock": "pregen-envoy-4", "at": [1, 3]},
            {"id": "Thug", "side": "gang", "statblock": LETHAL_BRAWLER, "at": [6, 1]},
            {"id": "Lackey", "side": "gang", "statblock": NO_RP_THUG, "at": [6, 3]},
            {"id": "Medic", "side": "gang", "statblock": MEDIC, "at": [8, 2]},
        ],
    )
    return enc.model_copy(update={"options": options})


@cache
def lingering() -> Encounter:
    """NPCs at 0 HP under the optional rules: the thug (Resolve) follows the characters' dying rules, the lackey
    and the medic (none) linger unconscious for three of their turns (INJ-07); the medic gives first aid."""
    return _gang(Sf1eOptions(npc_with_rp="pc_rules", npc_without_rp_at_zero="three_rounds"))


def test_the_kernel_plays_the_npc_dying_options() -> None:
    enc = lingering()
    assert unsupported(enc) == []
    comp = compile_encounter(enc)
    m = comp.model
    assert [bool(m.dying_rules[comp.ids.index(c)]) for c in ("Thug", "Lackey", "Medic")] == [True, False, False]
    assert [bool(m.linger[comp.ids.index(c)]) for c in ("Thug", "Lackey", "Medic")] == [False, True, True]


@pytest.mark.rule("INJ-07", "INJ-02", "INJ-04", "INJ-05", "INJ-09", "INJ-11")
@FIGHTS
@given(values=scripts())
def test_same_dice_same_fight_npc_dying_options_simple(values: list[int]) -> None:
    assert_same_fight(lingering(), values)


@pytest.mark.rule("INJ-07", "INJ-02", "INJ-04", "INJ-05", "INJ-09", "INJ-11")
@FIGHTS
@given(values=scripts())
def test_same_dice_same_fight_npc_dying_options_tactical(values: list[int]) -> None:
    assert_same_fight(lingering(), values, policy="tactical")


# ---------------------------------------------------------------- conditions at the start
@cache
def aftermath() -> Encounter:
    """A fight that starts with wounds: a character bleeding and shaken, one burning twice and sickened, a brute
    burning and then bleeding, a sniper off-target; the bleeding and burning tick from the first turn in the
    order the creatures gained them (CON-02, CON-05), the others' numbers are in the tables."""
    room = "##########\n#........#\n#........#\n#........#\n##########\n"
    return _build(
        "aftermath",
        room,
        [
            {"id": "Krask", "side": "crew", "statblock": "pregen-soldier-2", "at": [1, 1],
             "state": {"conditions": [{"name": "bleeding", "value": "1d4"}, {"name": "shaken"}]}},
            {"id": "Vela", "side": "crew", "statblock": "pregen-envoy-2", "at": [1, 3],
             "state": {"conditions": [{"name": "burning", "value": "1d4"}, {"name": "sickened"},
                                      {"name": "burning"}]}},
            {"id": "Brute", "side": "gang", "statblock": BASHER, "at": [7, 1],
             "state": {"conditions": [{"name": "burning", "value": "1d3"}, {"name": "bleeding", "value": "2"}]}},
            {"id": "Sniper", "side": "gang", "statblock": SNIPER, "at": [8, 3],
             "state": {"conditions": [{"name": "off-target"}, {"name": "deafened", "rounds": 20}]}},
        ],
    )  # fmt: skip


def test_the_kernel_plays_these_starting_conditions() -> None:
    enc = aftermath()
    assert unsupported(enc) == []
    comp = compile_encounter(enc)
    m = comp.model
    brute, vela, krask = (comp.ids.index(c) for c in ("Brute", "Vela", "Krask"))
    assert m.start_ticks[brute, 0, :3].tolist() == [0, 0, 2] and bool(m.start_bleed_last[brute])
    assert m.start_ticks[vela, 1, :3].tolist() == [1, 4, 0] and m.start_ticks[vela, 2, :3].tolist() == [1, 6, 0]
    assert m.start_ticks[vela, 0, 3] == -1 and not m.start_bleed_last[krask]


def test_starting_conditions_with_a_duration_are_left_to_the_engine() -> None:
    enc = aftermath()
    k = enc.get("Krask")
    cr = k.creature.with_state(conditions=(ConditionInstance(name="shaken", rounds=3),))
    enc = enc.model_copy(update={"combatants": {**enc.combatants, "Krask": k.model_copy(update={"creature": cr})}})
    assert any("shaken for 3 rounds" in why for why in unsupported(enc))


@pytest.mark.rule("CON-02", "CON-05", "CON-30", "CON-31")
@FIGHTS
@given(values=scripts())
def test_same_dice_same_fight_starting_conditions_simple(values: list[int]) -> None:
    assert_same_fight(aftermath(), values)


@pytest.mark.rule("CON-02", "CON-05", "CON-30", "CON-31")
@FIGHTS
@given(values=scripts())
def test_same_dice_same_fight_starting_conditions_tactical(values: list[int]) -> None:
    assert_same_fight(aftermath(), values, policy="tactical")
