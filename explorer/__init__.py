"""Explorer: a terminal UI for exploring and debugging a browsable REST administration API."""

__version__ = "0.1.0"
