"""The battle grid: squares, spaces, terrain, walls, distance, movement, reach, lines, cover, concealment,
flanking and areas. Pure geometry: nothing here knows hit points, stat blocks or turns.

Modules, in the order of the rules chapter:

* :mod:`~sftactics.grid.geometry` squares, intersections, footprints, 5-10-5 distance, range increments;
* :mod:`~sftactics.grid.map` the map value, its text format and renderer;
* :mod:`~sftactics.grid.space` sizes, spaces, reach and threatened squares;
* :mod:`~sftactics.grid.movement` step costs, paths, reachable squares, attacks of opportunity on the way;
* :mod:`~sftactics.grid.modes` flying, climbing, swimming, burrowing;
* :mod:`~sftactics.grid.lines` line of effect and line of sight;
* :mod:`~sftactics.grid.cover`, :mod:`~sftactics.grid.concealment`, :mod:`~sftactics.grid.flanking`;
* :mod:`~sftactics.grid.areas` bursts, spreads, cones, lines...; :mod:`~sftactics.grid.scatter` grenades;
* :mod:`~sftactics.grid.options` the ambiguous rules as named options.

The package re-exports the main types; import functions from their modules (``from sftactics.grid.cover import
cover``), since several modules share their name with their main function.
"""

from sftactics.grid.areas import Area, AreaKind, burst, cone, cylinder, emanation, line, spread
from sftactics.grid.concealment import ConcealmentKind, ConcealmentResult
from sftactics.grid.cover import CoverKind, CoverResult, cover_table
from sftactics.grid.flanking import FlankResult
from sftactics.grid.geometry import Footprint, Point, Square, check_range, distance_ft, footprint_distance_ft
from sftactics.grid.lines import has_line_of_effect, has_line_of_sight
from sftactics.grid.map import Feature, Gravity, GridMap, Light, edge, parse_map, render_map
from sftactics.grid.movement import (
    MoveMode,
    Mover,
    Occupant,
    PricedPath,
    ReachMap,
    find_path,
    price_path,
    reachable,
)
from sftactics.grid.options import DEFAULT_OPTIONS, GridOptions
from sftactics.grid.space import Body, Size, threatened_squares

__all__ = [
    "DEFAULT_OPTIONS",
    "Area",
    "AreaKind",
    "Body",
    "ConcealmentKind",
    "ConcealmentResult",
    "CoverKind",
    "CoverResult",
    "Feature",
    "FlankResult",
    "Footprint",
    "Gravity",
    "GridMap",
    "GridOptions",
    "Light",
    "MoveMode",
    "Mover",
    "Occupant",
    "Point",
    "PricedPath",
    "ReachMap",
    "Size",
    "Square",
    "burst",
    "check_range",
    "cone",
    "cover_table",
    "cylinder",
    "distance_ft",
    "edge",
    "emanation",
    "find_path",
    "footprint_distance_ft",
    "has_line_of_effect",
    "has_line_of_sight",
    "line",
    "parse_map",
    "price_path",
    "reachable",
    "render_map",
    "spread",
    "threatened_squares",
]
