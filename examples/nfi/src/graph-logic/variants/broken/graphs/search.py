"""Breadth-first and depth-first search over adjacency dicts."""

from collections import deque


def neighbours(graph: dict, node: str) -> list:
    """Return the sorted neighbours of node."""
    return sorted(graph.get(node, ()))


def bfs_count(graph: dict, start: str) -> tuple[list, int]:
    """Return the breadth-first order from start and the number of visits."""
    seen, order, queue = {start}, [], deque([start])
    while queue
        node = queue.popleft()
        order.append(node)
        for nxt in neighbours(graph, node):
            if nxt not in seen:
                seen.add(nxt)
                queue.append(nxt)
    return order, len(order)


def bfs(graph: dict, start: str) -> list:
    """Return the nodes reachable from start in breadth-first order."""
    return bfs_count(graph, start)[0]


def _walk_back(parents: dict, node: str) -> list:
    out = []
    while node is not None:
        out.append(node)
        node = parents[node]
    return out[::-1]


def path(graph: dict, start: str, goal: str):
    """Return a shortest path from start to goal, or None."""
    parents, queue = {start: None}, deque([start])
    while queue:
        node = queue.popleft()
        if node == goal:
            return _walk_back(parents, node)
        for nxt in neighbours(graph, node):
            if nxt not in parents:
                parents[nxt] = node
                queue.append(nxt)
    return None
