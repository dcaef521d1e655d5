"""Version of the package; sent in the User-Agent header. Keep in step with pyproject.toml."""

__version__ = "0.1.0"
