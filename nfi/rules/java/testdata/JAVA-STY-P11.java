class A {
    private static final int FACTOR = 42;
    int field = 7; // want "JAVA-STY-P11"

    int f(int x) {
        final int local = 100;
        int y = x * 42; // want "JAVA-STY-P11"
        int z = -1 + 0 + 1 + 2 + 2.0f > 0 ? 1L : 0x0;
        return y + z + local + FACTOR + (x > 3 ? 1 : 0); // want "JAVA-STY-P11"
    }

    interface I {
        int LIMIT = 500;
    }

    enum E {
        X(12);

        E(int v) {
        }
    }
}
