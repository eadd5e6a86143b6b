"""File formats: schemas, loaders and importers. The only layer that reads or writes files."""
