"""Dice: expressions (parse once, roll many times), injected dice sources, exact distributions."""

from sftactics.dice.expr import DiceExpr, DiceTerm, Part, parse
from sftactics.dice.roll import PartRoll, RolledExpr, roll
from sftactics.dice.source import DiceSource, DieRoll, ManualDice, ScriptedDice, SeededDice

__all__ = [
    "DiceExpr",
    "DiceSource",
    "DiceTerm",
    "DieRoll",
    "ManualDice",
    "Part",
    "PartRoll",
    "RolledExpr",
    "ScriptedDice",
    "SeededDice",
    "parse",
    "roll",
]
