"""Explorer: a terminal UI for exploring and debugging a browsable REST administration API."""

# The one place the version is written: the wheel's metadata takes it from here (pyproject.toml's
# [tool.hatch.version]), and `explorer --version`, the sandbox and the User-Agent say it.
__version__ = "0.1.0"
