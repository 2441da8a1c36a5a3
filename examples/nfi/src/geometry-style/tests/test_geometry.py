import pytest

from shapes import geometry as g


def square_pts():
    return [g.point(0, 0), g.point(2, 0), g.point(2, 2), g.point(0, 2)]


def test_area_and_centroid():
    pts = square_pts()
    assert g.polygonArea(pts) == 4
    assert g.polygonArea(pts[:2]) == 0.0
    c = g.centroid(pts)
    assert (c.x, c.y) == (1, 1)
    c = g.centroid(pts, (1, 1, 1, 5))
    assert (c.x, c.y) == (0.5, 1.5)


def test_distance_and_spread():
    assert g.point(0, 0).distanceTo(g.point(3, 4)) == 5
    assert g.spread(square_pts()) == pytest.approx(0.0)
    assert g.square(3) == 9
