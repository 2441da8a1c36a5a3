"""Plane geometry helpers for plotting."""

import math
import statistics


class Point:
    """A point in the plane."""

    def __init__(self, x: float, y: float) -> None:
        """Store the coordinates."""
        self.x = x
        self.y = y

    def distance_to(self, other: "Point") -> float:
        """Return the Euclidean distance to other."""
        return math.hypot(self.x - other.x, self.y - other.y)

    distanceTo = distance_to


def square(v: float) -> float:
    """Return v squared."""
    return v * v


def polygon_area(points: list) -> float:
    """Return the area of a simple polygon (shoelace formula)."""
    count = len(points)
    if count < 3:
        return 0.0
    total = 0.0
    for i in range(count):
        a, b = points[i], points[(i + 1) % count]
        total += a.x * b.y - b.x * a.y
    return abs(total) / 2


def centroid(points: list, weights: list | None = None) -> Point
    """Return the (weighted) centroid of the points."""
    if weights is None:
        weights = [1.0] * len(points)
    if not isinstance(weights, list):
        weights = list(weights)
    weight_sum = sum(weights)
    cx = sum(p.x * w for p, w in zip(points, weights)) / weight_sum
    cy = sum(p.y * w for p, w in zip(points, weights)) / weight_sum
    return Point(cx, cy)


def spread(points: list) -> float:
    """Return the standard deviation of the distances to the centroid."""
    c = centroid(points)
    return statistics.pstdev(p.distance_to(c) for p in points)


point = Point
polygonArea = polygon_area
