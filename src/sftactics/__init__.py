"""sftactics: Starfinder tactical combat by the book.

The package is layered (see docs/architecture.md):

* ``sftactics.dice``  - dice expressions, injected dice sources, exact distributions;
* ``sftactics.core``  - explained numbers (breakdowns and bonus stacking), d20 checks, errors, options;
* ``sftactics.sf1e``  - the 1st-edition rules: creatures, attacks, damage, injury, conditions;
* ``sftactics.io``    - file schemas and loaders (the only place that reads files);
* ``sftactics.cli``   - the command line.
"""

__version__ = "0.1.0"
