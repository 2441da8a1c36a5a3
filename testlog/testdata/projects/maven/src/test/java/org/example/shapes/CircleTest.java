package org.example.shapes;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.api.Disabled;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class CircleTest {
    @Test
    void unitArea() {
        assertEquals(Math.PI, new Circle(1).area(), 1e-9);
    }

    @Test
    void areaWrongOnPurpose() {
        assertEquals(4.0, new Circle(1).area(), 1e-9);
    }

    @Test
    void throwsOnPurpose() {
        throw new IllegalStateException("boom");
    }

    @Disabled("not implemented")
    @Test
    void perimeter() {
    }

    @ParameterizedTest
    @ValueSource(doubles = {0.0, 2.0})
    void nonNegative(double r) {
        assertEquals(true, new Circle(r).area() >= 0);
    }

    @Nested
    class Zero {
        @Test
        void zeroArea() {
            assertEquals(0.0, new Circle(0).area());
        }
    }
}
