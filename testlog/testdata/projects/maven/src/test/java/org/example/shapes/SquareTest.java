package org.example.shapes;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.api.Test;

class SquareTest {
    @Test
    void side() {
        assertEquals(4, 2 * 2);
    }
}
