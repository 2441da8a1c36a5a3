package org.example.shapes;

/** A circle of a given radius; fixture for testlog's Surefire golden. */
public record Circle(double radius) {
    public double area() {
        return Math.PI * radius * radius;
    }
}
