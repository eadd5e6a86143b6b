"""The Starfinder 1st-edition ruleset: stat blocks, derived numbers, attacks, damage, injury, conditions."""
