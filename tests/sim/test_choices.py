"""What the policies do with special abilities, spells and gear (sim.choices): heal, blast, grenades of every
save kind, draw a weapon; and, over whole simulated fights, a mystic healing a dying ally and every kind of
grenade thrown."""

from __future__ import annotations

from collections import Counter
from pathlib import Path

import pytest

from sftactics.content import find_weapon
from sftactics.encounter.commands import Begin, Command, Draw, Move, ThrowGrenade, UseAbility
from sftactics.encounter.engine import pending
from sftactics.encounter.events import AttackMade, apply
from sftactics.encounter.state import Encounter
from sftactics.io.scenario import load_scenario
from sftactics.sim.choices import without_class_abilities, without_specials
from sftactics.sim.fight import SimFight, run_fight
from sftactics.sim.kernel.model import unsupported
from sftactics.sim.policies import make_policy

from .conftest import write

ROOT = Path(__file__).resolve().parents[2]
OPEN = """\
##############
#............#
#............#
#............#
#............#
#............#
##############"""
DYING = "state: {hp: 0, rp: 0, conditions: [{name: dying}, {name: unconscious, source: 0 HP}]}"


def _turn(enc: Encounter, who: str, policy: str) -> list[Command]:
    fight = SimFight(enc, 1, keep_log=True)
    fight.do(Begin())
    assert pending(fight.state) == who
    make_policy(policy)(fight, who)
    return [c for c in fight.commands if getattr(c, "actor", None) == who]


def _give(enc: Encounter, cid: str, *weapons: str, only: bool = False) -> Encounter:
    """``enc`` with armory weapons added to ``cid``'s stat block (or as its only weapons)."""
    c = enc.combatants[cid]
    stat = c.creature.stat
    found = tuple(find_weapon(w) for w in weapons)
    stat = stat.model_copy(update={"weapons": found if only else (*stat.weapons, *found)})
    changed = c.model_copy(update={"creature": c.creature.model_copy(update={"stat": stat})})
    return enc.model_copy(update={"combatants": {**enc.combatants, cid: changed}})


@pytest.mark.rule("INJ-10", "INJ-18")
@pytest.mark.parametrize("policy", ["simple", "tactical"])
def test_a_mystic_heals_a_dying_ally_in_reach(tmp_path: Path, policy: str) -> None:
    path = write(tmp_path, "cure", [
        "{id: Sorin, side: party, statblock: pregen-mystic-2, at: [3, 3], initiative: 30}",
        f"{{id: Krask, side: party, statblock: pregen-soldier-2, at: [2, 3], initiative: 5, {DYING}}}",
        "{id: Foe, side: foes, statblock: skip-tracer, at: [11, 1], initiative: 1}",
    ], OPEN)  # fmt: skip
    cmds = _turn(load_scenario(path), "Sorin", policy)
    assert cmds[0] == UseAbility(actor="Sorin", name="mystic cure", kind="spell", target="Krask", heal="1d8+4",
                                 uses=3, pool="1st-level mystic spells")  # fmt: skip


@pytest.mark.rule("INJ-18")
def test_a_touch_heal_moves_next_to_the_patient_first(tmp_path: Path) -> None:
    path = write(tmp_path, "reach", [
        "{id: Sorin, side: party, statblock: pregen-mystic-2, at: [6, 3], initiative: 30}",
        f"{{id: Krask, side: party, statblock: pregen-soldier-2, at: [2, 3], initiative: 5, {DYING}}}",
        "{id: Foe, side: foes, statblock: skip-tracer, at: [11, 1], initiative: 1}",
    ], OPEN)  # fmt: skip
    cmds = _turn(load_scenario(path), "Sorin", "tactical")
    move, cure = cmds[:2]
    assert isinstance(move, Move) and move.to == (3, 2)  # the cheapest square next to Krask
    assert isinstance(cure, UseAbility) and cure.name == "mystic cure" and cure.target == "Krask"


@pytest.mark.rule("EFF-06", "SV-09")
@pytest.mark.parametrize("policy", ["simple", "tactical"])
def test_a_cone_catches_the_foes_and_spares_the_ally(tmp_path: Path, policy: str) -> None:
    path = write(tmp_path, "blast", [
        "{id: Sorin, side: party, statblock: pregen-mystic-4, at: [4, 3], initiative: 30}",
        "{id: Krask, side: party, statblock: pregen-soldier-4, at: [3, 3], initiative: 5}",
        "{id: G1, side: foes, statblock: space-goblin, at: [6, 2], initiative: 1}",
        "{id: G2, side: foes, statblock: space-goblin, at: [6, 3], initiative: 2}",
        "{id: G3, side: foes, statblock: space-goblin, at: [7, 4], initiative: 3}",
    ], OPEN)  # fmt: skip
    cmds = _turn(load_scenario(path), "Sorin", policy)
    blast = cmds[0]
    assert isinstance(blast, UseAbility) and blast.name == "force blast"
    assert blast.area is not None and blast.area.shape == "cone" and blast.area.direction in ("E", "SE", "NE")
    assert blast.save is not None and (blast.save.type, blast.save.dc) == ("ref", 16)


@pytest.mark.rule("ATK-12", "SV-09")
@pytest.mark.parametrize("grenade", ["flash grenade I", "screamer grenade I"])
def test_grenades_that_negate_or_partly_resist_are_thrown(tmp_path: Path, grenade: str) -> None:
    """The tactical policy values a grenade's riders (blinded; deafened and half damage on a partial save)."""
    path = write(tmp_path, "throw", [
        "{id: Vela, side: party, statblock: pregen-envoy-4, at: [2, 3], initiative: 30}",
        "{id: G1, side: foes, statblock: skip-tracer, at: [5, 2], initiative: 1}",
        "{id: G2, side: foes, statblock: skip-tracer, at: [5, 3], initiative: 2}",
    ], OPEN)  # fmt: skip
    enc = _give(load_scenario(path), "Vela", grenade, only=True)
    cmds = _turn(enc, "Vela", "tactical")
    assert isinstance(cmds[0], ThrowGrenade) and cmds[0].weapon == grenade
    if grenade == "flash grenade I":  # a 5-ft burst: only a corner the two foes share catches both
        assert cmds[0].at in ((5, 3), (6, 3))


@pytest.mark.rule("ACT-32")
@pytest.mark.parametrize("policy", ["simple", "tactical"])
def test_empty_hands_draw_a_weapon(tmp_path: Path, policy: str) -> None:
    path = write(tmp_path, "draw", [
        "{id: Krask, side: party, statblock: pregen-soldier-2, at: [2, 3], initiative: 30, in_hand: []}",
        "{id: Foe, side: foes, statblock: skip-tracer, at: [11, 1], initiative: 1}",
    ], OPEN)  # fmt: skip
    cmds = _turn(load_scenario(path), "Krask", policy)
    assert isinstance(cmds[0], Draw) and cmds[0].weapon == "tactical doshko"


def test_the_kernel_plays_the_mystics_abilities() -> None:
    enc = load_scenario(ROOT / "scenarios" / "grenade-alley.yaml")
    assert unsupported(enc) == []  # trick attack and get 'em too (kernel.riders, kernel.classes)
    assert unsupported(without_class_abilities(enc)) == []  # mystic cure, mind thrust, force blast: kernel.abilities
    assert unsupported(without_specials(enc)) == []


# ---------------------------------------------------------------- whole fights
def _alley() -> Encounter:
    """Grenade alley with the envoy carrying a flash grenade (Reflex negates) and the operative a screamer
    grenade (Reflex partial) besides the frag and shock grenades (Reflex half) of the scenario."""
    enc = load_scenario(ROOT / "scenarios" / "grenade-alley.yaml")
    return _give(_give(enc, "Vela", "flash grenade I"), "Nyx", "screamer grenade I")


@pytest.mark.rule("INJ-10", "ATK-12", "SV-09")
def test_in_simulated_fights_a_mystic_heals_a_dying_ally_and_every_kind_of_grenade_is_thrown() -> None:
    enc = _alley()
    party = {c.id for c in enc.combatants.values() if c.side == "party"}
    seen: Counter[str] = Counter()
    for seed in range(4):
        _, fight = run_fight(enc, seed, {"*": make_policy("tactical")}, keep_log=True)
        state = fight.start
        for cmd, events in zip(fight.commands, fight.events, strict=True):
            if isinstance(cmd, UseAbility) and cmd.heal and cmd.target and state.creature(cmd.target).has("dying"):
                healer = state.get(cmd.actor).creature.stat
                if "mystic" in healer.classes:
                    seen["a mystic heals a dying ally"] += 1
            for e in events:
                if (
                    isinstance(e, AttackMade)
                    and e.result is not None
                    and e.result.kind == "grenade"
                    and (e.attacker in party)
                ):
                    w = state.get(e.attacker).creature.stat.weapon(e.weapon)
                    assert w.area is not None
                    seen[f"{w.area.save} {w.area.on_save}"] += 1
                state = apply(state, e)
    assert seen["a mystic heals a dying ally"] >= 1
    assert seen["ref half"] and seen["ref partial"] and seen["ref negates"]
