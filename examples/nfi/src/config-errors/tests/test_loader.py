import json

import pytest

from settings import loader


def write(tmp_path, name, data):
    p = tmp_path / name
    p.write_text(data if isinstance(data, str) else json.dumps(data))
    return str(p)


def test_layers(tmp_path):
    base = write(tmp_path, "base.json", {"port": 80, "debug": False})
    over = write(tmp_path, "over.json", {"debug": True})
    got = loader.load(base, over, environ={"PORT": "8080"})
    assert got == {"port": 8080, "debug": True}


def test_broken_override_is_ignored(tmp_path):
    base = write(tmp_path, "base.json", {"port": 80})
    over = write(tmp_path, "over.json", "{not json")
    assert loader.load(base, over, environ={}) == {"port": 80}


def test_errors(tmp_path):
    with pytest.raises(Exception, match="cannot read"):
        loader.read_json(str(tmp_path / "missing.json"))
    with pytest.raises(Exception, match="top level"):
        loader.read_json(write(tmp_path, "list.json", [1, 2]))
    with pytest.raises(Exception, match="not a number"):
        loader.parse_port("http")
    with pytest.raises(Exception, match="out of range"):
        loader.parse_port("70000")
