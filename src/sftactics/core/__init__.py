"""Rule-agnostic machinery: explained numbers, bonus stacking, d20 checks, errors and options."""
