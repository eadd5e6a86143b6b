from pathlib import Path

import pytest

from sftactics.core.errors import FileFormatError
from sftactics.io.reference import conditions_markdown, options_markdown, statblock_schema
from sftactics.io.statblocks import load_statblock

ROOT = Path(__file__).parent.parent.parent
EXAMPLES = ROOT / "examples" / "statblocks"


@pytest.mark.parametrize("path", sorted(EXAMPLES.glob("*.yaml")), ids=lambda p: p.name)
def test_example_stat_blocks_load(path: Path) -> None:
    sb = load_statblock(path)
    assert sb.name and sb.weapons


def _write(tmp_path: Path, text: str, name: str = "block.yaml") -> Path:
    p = tmp_path / name
    p.write_text(text)
    return p


def test_missing_file_is_named(tmp_path: Path) -> None:
    with pytest.raises(FileFormatError) as e:
        load_statblock(tmp_path / "nope.yaml")
    assert "nope.yaml" in str(e.value) and "not found" in str(e.value)


def test_yaml_syntax_error_names_the_line(tmp_path: Path) -> None:
    p = _write(tmp_path, "name: x\nhp: [1, 2\n")
    with pytest.raises(FileFormatError) as e:
        load_statblock(p)
    assert e.value.file == str(p) and "line" in e.value.field


def test_wrong_type_names_the_field_path(tmp_path: Path) -> None:
    p = _write(tmp_path, "name: x\ncr: '1'\neac: 10\nkac: 11\nsaves: {fort: 1}\nhp: 5\n"
                         "weapons:\n  - {name: bite, damage: 1d6+x}\n")  # fmt: skip
    with pytest.raises(FileFormatError) as e:
        load_statblock(p)
    assert e.value.field == "weapons[0].damage"
    assert "cannot read dice expression" in e.value.expected


def test_unknown_field_is_an_error(tmp_path: Path) -> None:
    p = _write(tmp_path, "name: x\ncr: '1'\neac: 10\nkac: 11\nsaves: {fort: 1}\nhp: 5\narmour: 3\n")
    with pytest.raises(FileFormatError) as e:
        load_statblock(p)
    assert e.value.field == "armour" and "unknown field" in e.value.expected


def test_missing_required_field(tmp_path: Path) -> None:
    p = _write(tmp_path, "name: x\ncr: '1'\neac: 10\nkac: 11\nsaves: {fort: 1}\n")
    with pytest.raises(FileFormatError) as e:
        load_statblock(p)
    assert e.value.field == "hp" and "missing" in e.value.expected


def test_top_level_must_be_a_mapping(tmp_path: Path) -> None:
    with pytest.raises(FileFormatError, match="mapping"):
        load_statblock(_write(tmp_path, "- 1\n- 2\n"))


def test_json_stat_blocks_load_too(tmp_path: Path) -> None:
    p = _write(tmp_path, '{"name": "x", "cr": "1/3", "eac": 10, "kac": 11, "saves": {"fort": 1}, "hp": 5}', "x.json")
    assert float(load_statblock(p).cr_value) == pytest.approx(1 / 3)
    bad = _write(tmp_path, '{"name": ', "bad.json")
    with pytest.raises(FileFormatError, match="valid JSON"):
        load_statblock(bad)


def test_generated_docs_are_current() -> None:
    assert (ROOT / "docs" / "statblock.schema.json").read_text() == statblock_schema(), (
        "regenerate: sftactics schema statblock > docs/statblock.schema.json"
    )
    assert (ROOT / "docs" / "options.md").read_text() == options_markdown(), (
        "regenerate: sftactics schema options > docs/options.md"
    )
    assert (ROOT / "docs" / "conditions.md").read_text() == conditions_markdown(), (
        "regenerate: sftactics schema conditions > docs/conditions.md"
    )
