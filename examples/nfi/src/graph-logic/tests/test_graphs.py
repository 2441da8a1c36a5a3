from graphs import hooks, search

G = {"a": ["c", "b"], "b": ["d"], "c": ["d", "e"], "d": [], "e": ["a"]}


def test_bfs_and_path():
    assert search.bfs(G, "a") == ["a", "b", "c", "d", "e"]
    assert search.bfs(G, "zz") == ["zz"]
    assert search.path(G, "a", "e") == ["a", "c", "e"]
    assert search.path(G, "d", "a") is None
    assert search.neighbours(G, "nope") == []


def test_hooks():
    assert hooks.first_hit(["x", "c", "b"], ["b", "c"]) == "reached c"
    assert hooks.first_hit(["x"], ["b"]) is None
    q = [1, 2, 3]
    assert hooks.drain(q) == 3 and q == []
