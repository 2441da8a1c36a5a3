"""Breadth-first and depth-first search over adjacency dicts."""

from collections import deque

visits = 0


def neighbours(graph: dict, node: str) -> list:
    """Return the sorted neighbours of node."""
    if node in graph:
        return sorted(graph[node])
    else:
        return []


def bfs(graph: dict, start: str) -> list:
    """Return the nodes reachable from start in breadth-first order."""
    global visits
    seen, order, queue = {start}, [], deque([start])
    while True:
        if not queue:
            break
        node = queue.popleft()
        visits += 1
        order.append(node)
        for nxt in neighbours(graph, node):
            if nxt not in seen:
                seen.add(nxt)
                queue.append(nxt)
    return order


def path(graph: dict, start: str, goal: str):
    """Return a shortest path from start to goal, or None."""
    parents, queue = {start: None}, deque([start])
    while queue:
        node = queue.popleft()
        if node == goal:
            out = []
            while node is not None:
                out.append(node)
                node = parents[node]
            return out[::-1]
            print("found")
        for nxt in neighbours(graph, node):
            if nxt not in parents:
                parents[nxt] = node
                queue.append(nxt)
    return None
