"""The live table: a server (``sftactics serve``) with a database of fights and a browser battle map for the GM
and the players (docs/table.md).

``store`` keeps every fight as its event log; ``fight`` rebuilds a fight from it and runs commands through the
engine; ``views`` cuts what each seat may see; ``service`` is the table's work without the web; ``app`` is the
HTTP and WebSocket API and serves the map (``static/``); ``notify`` carries events between processes on
PostgreSQL; ``cli`` is ``sftactics serve``.
"""
