"""Views: pictures of a fight's state for people. Pure functions, data in and text or SVG out; printing and
writing files is the shell's job (:mod:`sftactics.views.command` holds the body of ``sftactics map``).

* :mod:`~sftactics.views.mapview` the battle map with combatant tokens and overlays (reach, threat, cover,
  area templates), as terminal text or SVG.
"""

from sftactics.views.mapview import (
    OVERLAYS,
    Key,
    MapView,
    Overlay,
    Token,
    area_overlay,
    build_view,
    cover_overlay,
    parse_area,
    reach_overlay,
    render_svg,
    render_text,
    side_view,
    threat_overlay,
    threatened_by,
    tokens_for,
)

__all__ = [
    "OVERLAYS",
    "Key",
    "MapView",
    "Overlay",
    "Token",
    "area_overlay",
    "build_view",
    "cover_overlay",
    "parse_area",
    "reach_overlay",
    "render_svg",
    "render_text",
    "side_view",
    "threat_overlay",
    "threatened_by",
    "tokens_for",
]
