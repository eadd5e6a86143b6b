"""The Foundry VTT (sfrpg) importer: real fixture data, the normalisations it reports, robustness."""

from __future__ import annotations

import copy
import json
import re
from collections.abc import Iterator
from functools import cache
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from sftactics.core.errors import FileFormatError
from sftactics.dice.expr import parse
from sftactics.io.foundry import (
    ImportResult,
    import_actor,
    import_foundry_cmd,
    import_paths,
    load_actor,
    parse_feet,
    parse_senses,
    parse_speed_text,
    statblock_yaml,
    write_statblocks,
)
from sftactics.io.statblocks import load_statblock

DATA = Path(__file__).parent.parent / "data" / "foundry-sfrpg"
CREATURES = sorted((DATA / "creatures").glob("*.json"))
VEHICLES = sorted((DATA / "vehicles").glob("*.json"))


@cache
def raw(path: Path) -> dict[str, Any]:
    data: dict[str, Any] = json.loads(path.read_text(encoding="utf-8"))
    return data


@cache
def imported(path: Path) -> ImportResult:
    return load_actor(path)


def by_name(name: str) -> Path:
    return DATA / "creatures" / f"{name}.json"


def notes(result: ImportResult, code: str | None = None) -> list[str]:
    return [n.line() for n in result.notes if code is None or n.code == code]


def test_the_fixtures_are_all_here() -> None:
    assert len(CREATURES) == 40
    assert (DATA / "NOTICE").is_file()


# ---------------------------------------------------------------------------------------------- the numbers


@pytest.mark.parametrize("path", CREATURES, ids=lambda p: p.stem)
def test_every_creature_imports_with_the_source_numbers(path: Path) -> None:
    src = raw(path)
    r = imported(path)
    sb = r.statblock
    assert sb is not None
    a = src["system"]["attributes"]
    assert sb.name == src["name"]
    assert sb.eac == a["eac"]["base"]
    assert sb.kac == a["kac"]["base"]
    assert sb.hp == a["hp"]["max"]
    assert sb.saves is not None
    assert (sb.saves.fort, sb.saves.ref, sb.saves.will) == (a["fort"]["base"], a["reflex"]["base"], a["will"]["base"])
    assert sb.initiative == a["init"]["value"]
    assert sb.abilities == {k: v["base"] for k, v in src["system"]["abilities"].items()}
    assert sb.size == src["system"]["traits"]["size"]


@pytest.mark.parametrize("path", CREATURES, ids=lambda p: p.stem)
def test_speeds_equal_the_source_or_are_reported(path: Path) -> None:
    src = raw(path)["system"]["attributes"]["speed"]
    r = imported(path)
    assert r.statblock is not None
    speed_notes = " ".join(notes(r, "speed"))
    for key, mode in (("land", "land"), ("climbing", "climb"), ("swimming", "swim"), ("burrowing", "burrow"),
                      ("flying", "fly")):  # fmt: skip
        source = src.get(key, {}).get("base", 0)
        got = r.statblock.speed.get(mode, 0)
        if got != source:
            assert f"{mode} {got} ft" in speed_notes, (mode, source, got, speed_notes)


def _printed_weapons(src: dict[str, Any]) -> Iterator[dict[str, Any]]:
    for item in src["items"]:
        if item["type"] == "weapon" and item["system"]["attackBonus"]:
            yield item


@pytest.mark.parametrize("path", CREATURES, ids=lambda p: p.stem)
def test_attacks_equal_the_source_numbers(path: Path) -> None:
    """Every printed attack (attack bonus not 0) is imported with its bonus, damage dice and target."""
    src = raw(path)
    r = imported(path)
    assert r.statblock is not None
    weapons = list(r.statblock.weapons)
    for item in _printed_weapons(src):
        s = item["system"]
        matches = [w for w in weapons if w.name == item["name"] or w.name.startswith(item["name"] + " (")]
        if not matches:
            # an item with no damage to read (e.g. a flash grenade) is kept by name and reported
            assert any(a.name == item["name"] and not a.usable for a in r.abilities), item["name"]
            assert any(item["name"] in line for line in notes(r, "ability"))
            continue
        w = matches[0]
        weapons.remove(w)
        assert w.attack_bonus == s["attackBonus"]
        formula = "+".join(p["formula"] for p in s["damage"]["parts"]).replace(" ", "")
        dice = "".join(str(t) for t in parse(w.damage).terms)
        assert re.sub(r"[^0-9d]", "", formula) == re.sub(r"[^0-9d]", "", dice), (w.damage, formula)
        if s["actionTarget"] in ("eac", "kac"):
            assert w.targets == s["actionTarget"]


def test_kinds_of_attack() -> None:
    pirate = imported(by_name("pirate_lord")).statblock
    assert pirate is not None
    doshko = pirate.weapon("Doshko, advanced")
    assert doshko.is_melee and doshko.damage == "2d12+12 P" and doshko.attack_bonus == 17 and doshko.two_handed
    plasma = pirate.weapon("Plasma pistol, red star")
    assert not plasma.is_melee and plasma.damage_types == {"electricity", "fire"} and plasma.critical == "Burn 1d8"
    assert plasma.range_ft == 20  # a line weapon: its range is its line
    unarmed = pirate.weapon("Unarmed strike")
    assert unarmed.category == "unarmed" and unarmed.nonlethal
    knife = imported(by_name("hanakan_attendant")).statblock
    assert knife is not None
    k = knife.weapon("Knife, survival")
    assert k.is_melee and k.thrown and k.range_ft == 20 and k.operative
    ghoul = imported(by_name("ghoul_shock_trooper")).statblock
    assert ghoul is not None
    frag = ghoul.weapon("Frag grenade IV")
    assert frag.is_grenade and frag.area is not None
    assert (frag.area.size_ft, frag.area.save, frag.area.on_save, frag.area.dc) == (15, "ref", "half", 18)
    bite = ghoul.weapon("Bite")
    assert bite.category == "natural" and bite.targets == "kac"


# ---------------------------------------------------------------------------------------------- normalisations


def test_fractional_cr_is_recovered_and_reported() -> None:
    r = imported(by_name("drift_leech"))
    assert r.statblock is not None and r.statblock.cr == "1/3" and r.cr_known
    assert any("CR 1/3 recovered from 6 HP" in n for n in notes(r, "cr"))


def test_unknown_cr_is_marked() -> None:
    data = copy.deepcopy(raw(by_name("barathu")))
    data["system"]["details"]["cr"] = 0
    r = import_actor(data, source="barathu.json")
    assert not r.cr_known and r.statblock is not None and r.statblock.cr == "0"
    assert any("CR unknown" in n for n in notes(r, "cr"))
    assert "CR unknown" in statblock_yaml(r)


def test_float_cr_is_read_as_a_fraction() -> None:
    data = copy.deepcopy(raw(by_name("drift_leech")))
    data["system"]["details"]["cr"] = 0.5
    r = import_actor(data)
    assert r.statblock is not None and r.statblock.cr == "1/2"
    assert notes(r, "cr")


def test_space_and_reach_text() -> None:
    assert parse_feet("10 ft. (15 ft. with bite)") == (10, [(15, "bite")])
    assert parse_feet("2-1/2 ft.") == (2.5, [])
    assert parse_feet("5") == (5, [])
    assert parse_feet("") == (None, [])
    assert parse_feet("1/2 ft.") == (0.5, [])
    squox = imported(by_name("trained_squox"))
    assert squox.statblock is not None and squox.statblock.space_ft == 2.5 and squox.statblock.reach_ft == 0
    obf = imported(by_name("obfuchsia"))
    assert obf.statblock is not None and obf.statblock.reach_ft == 5
    assert obf.statblock.weapon("Tendril").reach_ft == 10 and obf.statblock.weapon("Bite").reach_ft is None
    assert any("10 ft with tendril" in n for n in notes(obf, "reach"))
    utesra = imported(by_name("utesra")).statblock
    assert utesra is not None and utesra.weapon("Shock Tendril").reach_ft == 30
    svart = imported(by_name("svartalfar"))
    assert svart.statblock is not None and svart.statblock.space_ft == 5 and svart.statblock.reach_ft == 5
    assert notes(svart, "space") and notes(svart, "reach")


def test_senses_text() -> None:
    senses, remarks = parse_senses("darkvision 60 ft., blindsense (thought) 30 ft.")
    assert senses == {"darkvision": 60, "blindsense": 30}
    assert any("thought" in r for r in remarks)
    senses, _ = parse_senses("blindsense 30 ft. (sound), blindsight 5 ft. (sound), sightless")
    assert senses == {"blindsense": 30, "blindsight": 5, "sightless": 0}
    senses, _ = parse_senses("darkvision 60 ft., low-light vision, sense through (vision [life-forms only]) 60 ft.")
    assert senses == {"darkvision": 60, "low-light vision": 0, "sense through": 60}
    r = imported(by_name("aanung-an"))
    assert r.senses == "darkvision 60 ft., blindsense (thought) 30 ft."
    if r.statblock is not None and "senses" in type(r.statblock).model_fields:
        assert r.statblock.senses == {"darkvision": 60, "blindsense": 30}  # type: ignore[attr-defined]


def test_speed_text_recovers_lost_speeds() -> None:
    assert parse_speed_text("original base: 5 ft.; original special: fly 80 ft. (Ex, perfect") == (
        {"land": 5, "fly": 80},
        "perfect",
    )
    assert parse_speed_text("fly 80 (Su, average)") == ({"fly": 80}, "average")
    assert parse_speed_text("original base: 30 ft.; original special: fly 30 ft. (Su, perftect)")[1] == "perfect"
    skate = imported(by_name("cloud_skate"))
    assert skate.statblock is not None
    assert skate.statblock.speed == {"land": 5, "fly": 80} and skate.statblock.fly_maneuverability == "perfect"
    hanakan = imported(by_name("hanakan_attendant"))
    assert hanakan.statblock is not None and hanakan.statblock.speed == {"land": 40, "climb": 20}
    assert any("4020 ft is not a speed" in n for n in notes(hanakan, "speed"))
    barathu = imported(by_name("barathu"))
    assert barathu.statblock is not None and barathu.statblock.speed == {"land": 0, "fly": 30}
    assert barathu.statblock.fly_maneuverability == "average"  # baseManeuverability 0 is kept...
    assert any("says perfect" in n for n in notes(barathu, "speed"))  # ...and the disagreement reported


def test_unequipped_duplicates_are_skipped_and_reported() -> None:
    r = imported(by_name("emt"))
    assert r.statblock is not None
    names = [w.name for w in r.statblock.weapons]
    assert names.count("Knife, survival") == 1 and names.count("Arc pistol, static") == 1
    assert len(notes(r, "duplicate")) == 3
    # a duplicate marked equipped is skipped too (the printed one is the one with the attack bonus)
    svart = imported(by_name("svartalfar"))
    assert any("equipped: true" in n for n in notes(svart, "duplicate"))


def test_lost_damage_types_are_filled_in_and_reported() -> None:
    r = imported(by_name("emt"))
    assert r.statblock is not None
    assert r.statblock.weapon("Arc pistol, static").damage == "1d6+3 E"
    assert any("from its other copy" in n for n in notes(r, "damage"))
    leech = imported(by_name("drift_leech"))
    assert any("untyped" in n for n in notes(leech, "damage"))


def test_plus_dice_in_the_name_are_split() -> None:
    r = imported(by_name("obfuchsia"))
    assert r.statblock is not None
    assert r.statblock.weapon("Bite").damage == "2d8+17 P + 1d8 A"


def test_critical_effects_are_rebuilt() -> None:
    megalonyxa = imported(by_name("megalonyxa")).statblock
    assert megalonyxa is not None
    assert megalonyxa.weapon("Sonic pistol").critical == "Deafen [DC 15]"
    ghoul = imported(by_name("ghoul_shock_trooper")).statblock
    assert ghoul is not None and ghoul.weapon("Artillery laser").critical == "Burn 2d6"


def test_defenses() -> None:
    aanung = imported(by_name("aanung-an")).statblock
    assert aanung is not None
    assert [(d.value, d.bypass) for d in aanung.dr] == [(5, "magic")]
    assert aanung.sr == 15 and "nonlethal" in aanung.immunities and "paralyzed" in aanung.immunities
    svart = imported(by_name("svartalfar")).statblock
    assert svart is not None and [(d.value, d.bypass) for d in svart.dr] == [(10, "cold iron")]
    kobold = imported(by_name("skip_tracer"))
    assert kobold.statblock is not None and kobold.statblock.resistances == {"electricity": 5}
    assert sum("disabled" in n for n in notes(kobold, "resistance")) == 3
    robot = imported(by_name("robot_azlanti_battle")).statblock
    assert robot is not None and "electricity" in robot.vulnerabilities and "nonlethal" in robot.immunities
    goo = imported(by_name("gray_goo")).statblock
    assert goo is not None and "critical hits" in goo.immunities
    spook = imported(by_name("spookfish_swarm")).statblock
    assert spook is not None and spook.incorporeal


def test_dr_with_a_custom_bypass() -> None:
    data = copy.deepcopy(raw(by_name("aanung-an")))
    data["system"]["modifiers"][0]["valueAffected"] = ""
    data["system"]["modifiers"][0]["customValue"] = "good || silver"
    sb = import_actor(data).statblock
    assert sb is not None and [(d.value, d.bypass) for d in sb.dr] == [(5, "good || silver")]


def test_special_abilities() -> None:
    r = imported(by_name("pirate_lord"))
    assert r.statblock is not None
    nova = r.statblock.weapon("Supernova")
    assert nova.area is not None and nova.damage == "8d6 F" and not nova.is_melee
    assert (nova.area.shape, nova.area.size_ft, nova.area.save, nova.area.on_save, nova.area.dc) == (
        "burst", 10, "ref", "half", 15,
    )  # fmt: skip
    kept = {a.name: a for a in r.abilities if not a.usable}
    assert "Stellar Rush (Su) [3d6 F, DC 15]" in kept and "Black Hole (Su) [25-Ft. Radius, Pull 15 Ft., DC 15]" in kept
    assert any("Stellar Rush" in n and "not usable" in n for n in notes(r, "ability"))
    seedling = imported(by_name("cynogerm")).statblock
    assert seedling is not None
    s = seedling.weapon("Seedling attack")
    assert s.attack_bonus == 9 and s.range_ft == 30 and not s.is_melee
    robot = imported(by_name("robot_azlanti_battle")).statblock
    assert robot is not None and robot.weapon("Self-Destruct").area is not None


def test_swarm_attacks_are_kept_by_name() -> None:
    r = imported(by_name("vermin_warpmoth_swarm"))
    assert r.statblock is not None and not r.statblock.weapons
    assert any(a.kind == "swarm" for a in r.abilities)
    assert any("no usable attack" in n for n in notes(r, "attack"))


def test_suspicious_numbers_are_kept_and_flagged() -> None:
    r = imported(by_name("psychopomp_morrigna"))
    assert r.statblock is not None and r.statblock.weapon("staff").attack_bonus == 180
    assert any("+180" in n for n in notes(r, "suspicious"))


def test_formula_references_are_resolved() -> None:
    data = copy.deepcopy(raw(by_name("dessamar_imago")))
    spear = next(i for i in data["items"] if i["name"] == "Spear, tactical" and not i["system"]["equipped"])
    spear["system"]["attackBonus"] = 5
    data["items"] = [i for i in data["items"] if i is spear or i["name"] != "Spear, tactical"]
    r = import_actor(data)
    assert r.statblock is not None
    assert r.statblock.weapon("Spear").damage == "1d6-1 P"  # Str -1
    assert any("@abilities.str.mod = -1" in n for n in notes(r, "formula"))


def test_multiattack_prefix() -> None:
    data = copy.deepcopy(raw(by_name("shantak")))
    bite = next(i for i in data["items"] if i["name"] == "Bite")
    bite["name"] = "[MultiATK] Bite"
    r = import_actor(data)
    assert r.statblock is not None
    w = r.statblock.weapon("Bite")
    assert w.name == "Bite" and w.multiattack
    assert notes(r, "multiattack")


def test_character_sheets_read_scores() -> None:
    data = copy.deepcopy(raw(by_name("skip_tracer")))
    data["type"] = "character"
    for a in data["system"]["abilities"].values():
        a["base"] = 10 + 2 * a["base"]
    data["system"]["details"]["level"] = {"value": 1}
    r = import_actor(data)
    assert r.statblock is not None and r.statblock.level == 1
    assert r.statblock.abilities["cha"] == 2 and r.statblock.scores["cha"] == 14


def test_vehicle_actors_are_imported_as_vehicle_stat_blocks(tmp_path: Path) -> None:
    report = import_paths([DATA / "vehicles"])
    assert len(report.vehicles) == len(VEHICLES) and not report.failed and not report.imported
    assert not report.unsupported
    written = write_statblocks(report, tmp_path)
    assert sorted(p.name for p in written) == ["basic-enercycle.yaml", "drop-pod.yaml", "heavy-walker.yaml"]
    from sftactics.io.vehicles import load_vehicle

    cycle = load_vehicle(tmp_path / "vehicles" / "basic-enercycle.yaml")
    assert (cycle.item_level, cycle.eac, cycle.kac, cycle.hp, cycle.collision.dc) == (1, 10, 12, 7, 8)
    lines = report.lines()
    assert any("Basic Enercycle (vehicle, item level 1)" in line for line in lines)
    assert "3 vehicle(s) imported" in lines[-1]


def test_item_files_in_a_compendium_folder_are_skipped() -> None:
    report = import_paths([DATA / "equipment"])
    assert not report.failed and not report.imported and len(report.unsupported) == 406
    assert "Skipped 406 item file(s), not actors: 10 ammunition, 86 equipment, 310 weapon" in report.lines()


def test_the_report_lists_every_normalisation() -> None:
    report = import_paths([DATA / "creatures"])
    assert len(report.imported) == 40 and not report.failed
    text = "\n".join(report.lines())
    for r in report.imported:
        assert f"{r.name} (CR" in text
        for n in r.notes:
            assert n.line() in text
    assert "40 creature(s) imported" in text


# ---------------------------------------------------------------------------------------------- files


def test_yaml_round_trips(tmp_path: Path) -> None:
    report = import_paths([DATA / "creatures"])
    written = write_statblocks(report, tmp_path)
    assert len(written) == 40
    for r in report.imported:
        assert r.written is not None
        assert load_statblock(r.written) == r.statblock


class _Console:
    def __init__(self) -> None:
        self.lines: list[str] = []

    def print(self, *objects: Any, **kwargs: Any) -> None:
        self.lines.append(" ".join(str(o) for o in objects))


def test_cli_function(tmp_path: Path) -> None:
    folder = tmp_path / "pack"
    folder.mkdir()
    for name in ("drift_leech", "barathu"):
        (folder / f"{name}.json").write_text(by_name(name).read_text())
    (folder / "truncated.json").write_text(by_name("shantak").read_text()[:500])
    bad = copy.deepcopy(raw(by_name("emt")))
    bad["system"]["attributes"]["kac"]["base"] = "fifteen"
    (folder / "wrong.json").write_text(json.dumps(bad))
    (folder / "drop_pod.json").write_text(VEHICLES[0].read_text())
    console = _Console()
    code = import_foundry_cmd([folder], tmp_path / "out", console)
    assert code == 1
    out = "\n".join(console.lines)
    assert "Drift Leech (CR 1/3)" in out and "Barathu (CR 5)" in out
    assert re.search(r"truncated\.json: line \d+ column \d+: valid JSON", out)
    assert "wrong.json: system.attributes.kac.base: a whole number, got text 'fifteen'" in out
    assert "Basic Enercycle (vehicle, item level 1)" in out
    assert sorted(p.name for p in (tmp_path / "out").iterdir()) == ["barathu.yaml", "drift-leech.yaml",
                                                                     "import-report.txt", "vehicles"]  # fmt: skip
    assert [p.name for p in (tmp_path / "out" / "vehicles").iterdir()] == ["basic-enercycle.yaml"]
    assert import_foundry_cmd([by_name("barathu")], tmp_path / "out2", _Console()) == 0


def test_errors_name_the_file_and_the_field(tmp_path: Path) -> None:
    cases: list[tuple[str, Any, str]] = [
        ("system.attributes.eac", {"base": "x"}, "system.attributes.eac.base"),
        ("system.attributes.hp", {"max": 0}, "system.attributes.hp.max"),
        ("system.traits.size", "enormous", "system.traits.size"),
        ("system.details.cr", "one third", "system.details.cr"),
        ("system.attributes", [], "system.attributes"),
    ]
    for where, value, field in cases:
        data = copy.deepcopy(raw(by_name("barathu")))
        *parents, last = where.split(".")
        obj = data
        for p in parents:
            obj = obj[p]
        obj[last] = value
        with pytest.raises(FileFormatError) as e:
            import_actor(data, source="barathu.json")
        assert e.value.file == "barathu.json" and e.value.field == field, (where, str(e.value))
    data = copy.deepcopy(raw(by_name("barathu")))
    data["items"][1]["system"]["attackBonus"] = [12]
    with pytest.raises(FileFormatError) as e:
        import_actor(data, source="barathu.json")
    assert e.value.field == 'items[1] "Slam".system.attackBonus'
    with pytest.raises(FileFormatError) as e:
        import_actor({"name": "x", "type": "spaceship"}, source="x.json")
    assert e.value.field == "type"
    p = tmp_path / "empty.json"
    p.write_text("")
    with pytest.raises(FileFormatError):
        load_actor(p)
    with pytest.raises(FileFormatError) as e:
        load_actor(tmp_path / "missing.json")
    assert "not found" in str(e.value)


# ---------------------------------------------------------------------------------------------- robustness

_JSON = st.recursive(
    st.none() | st.booleans() | st.integers(-(10**12), 10**12) | st.floats(allow_nan=True) | st.text(max_size=20),
    lambda children: st.lists(children, max_size=3) | st.dictionaries(st.text(max_size=8), children, max_size=3),
    max_leaves=6,
)


def _paths(obj: Any, prefix: tuple[Any, ...] = ()) -> list[tuple[Any, ...]]:
    out = [prefix]
    if isinstance(obj, dict):
        for k, v in obj.items():
            out += _paths(v, (*prefix, k))
    elif isinstance(obj, list):
        for i, v in enumerate(obj):
            out += _paths(v, (*prefix, i))
    return out


_SMALL = [by_name(n) for n in ("barathu", "pirate_lord", "emt", "obfuchsia", "aanung-an", "skip_tracer")]


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.data())
def test_mutated_fixtures_never_crash_the_importer(data: st.DataObject) -> None:
    src = copy.deepcopy(raw(data.draw(st.sampled_from(_SMALL))))
    paths = _paths(src)
    for _ in range(data.draw(st.integers(1, 4))):
        path = data.draw(st.sampled_from(paths))
        if not path:
            src = data.draw(_JSON)
            break
        parent: Any = src
        try:
            for step in path[:-1]:
                parent = parent[step]
            last = path[-1]
            op = data.draw(st.sampled_from(["replace", "delete", "truncate"]))
            if op == "delete":
                del parent[last]
            elif op == "truncate" and isinstance(parent[last], str):
                parent[last] = parent[last][: data.draw(st.integers(0, 5))]
            else:
                parent[last] = data.draw(_JSON)
        except (KeyError, IndexError, TypeError):
            continue  # an earlier mutation removed or replaced this path
    try:
        result = import_actor(src, source="mutant.json")
    except FileFormatError as e:
        assert e.file == "mutant.json"
        return
    assert result.name


@settings(max_examples=40, deadline=None)
@given(st.integers(0, 10_000), st.sampled_from(_SMALL))
def test_truncated_files_give_a_file_error(tmp_path_factory: pytest.TempPathFactory, cut: int, path: Path) -> None:
    text = path.read_text(encoding="utf-8")
    cut = cut % len(text)
    p = tmp_path_factory.mktemp("cut") / "cut.json"
    p.write_text(text[:cut], encoding="utf-8")
    with pytest.raises(FileFormatError) as e:
        load_actor(p)
    assert e.value.file == str(p)
