"""Plane geometry helpers for plotting."""

import math, statistics


class point:
    """A point in the plane."""

    def __init__(self, x: float, y: float) -> None:
        """Store the coordinates."""
        self.x = x; self.y = y

    def distanceTo(self, other: "point") -> float:
        """Return the Euclidean distance to other."""
        return math.hypot(self.x - other.x, self.y - other.y)


square = lambda v: v * v


def polygonArea(Points: list) -> float:
    """Return the area of a simple polygon (shoelace formula)."""
    l = len(Points)
    if l < 3:
        return 0.0
    Total = 0.0
    for i in range(l):
        a, b = Points[i], Points[(i + 1) % l]
        Total += a.x * b.y - b.x * a.y
    return abs(Total) / 2


def centroid(Points: list, weights: list = None) -> point:
    """Return the (weighted) centroid of the points."""
    if weights == None:
        weights = [1.0] * len(Points)
    if type(weights) != list:
        weights = list(weights)
    W = sum(weights)
    cx = sum(p.x * w for p, w in zip(Points, weights)) / W   
    cy = sum(p.y * w for p, w in zip(Points, weights)) / W
    return point(cx, cy)


def spread(Points: list) -> float:
    """Return the standard deviation of the distances to the centroid."""
    c = centroid(Points)
    return statistics.pstdev(p.distanceTo(c) for p in Points)
