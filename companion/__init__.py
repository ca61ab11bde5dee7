"""The ``tribes-companion`` console command: one entry point that wires the project's packages."""
