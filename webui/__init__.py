"""webui: see README.md; this package is filled in by its own issue."""
