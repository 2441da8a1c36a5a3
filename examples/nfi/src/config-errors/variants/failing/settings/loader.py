"""Load layered application settings from JSON files and the environment."""

import json
import logging
import os

log = logging.getLogger(__name__)


class ConfigError(Exception):
    """Raised when settings cannot be loaded."""


def read_json(path: str) -> dict:
    """Read one JSON settings file."""
    try:
        with open(path, encoding="utf-8") as fh:
            data = json.load(fh)
    except (OSError, ValueError) as exc:
        raise ConfigError(f"cannot read settings file {path}") from exc
    if not isinstance(data, dict):
        raise ConfigError(f"{path}: top level must be an object")
    return data


def parse_port(value: str) -> int:
    """Parse a TCP port number."""
    try:
        port = int(value)
    except ValueError as exc:
        raise ConfigError(f"port {value!r} is not a number") from exc
    return port


def load(base: str, override: str | None = None, environ: dict | None = None) -> dict:
    """Merge the base file, an optional override file and PORT from the environment."""
    environ = os.environ if environ is None else environ
    settings = read_json(base)
    if override:
        try:
            extra = read_json(override)
        except ConfigError:
            log.warning("ignoring unreadable override file %s", override)
            extra = {}
        settings.update(extra)
    if "PORT" in environ:
        settings["port"] = parse_port(environ["PORT"])
    return settings
