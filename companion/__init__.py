"""The console command ``table-companion`` (alias ``tribes-companion``): the app layer that wires the
project's packages."""
