class A {
    void f() {
        try {
            g();
        } catch (IllegalStateException e) { // want "JAVA-ERR-P01"
        }
        try {
            g();
        } catch (IllegalArgumentException e) { // want "JAVA-ERR-P01"
            // a comment does not make it handled
        }
        try {
            g();
        } catch (RuntimeException ignored) {
        }
        try {
            g();
        } catch (UnsupportedOperationException expected) {
        }
        try {
            g();
        } catch (ArithmeticException e) {
            h(e);
        }
    }

    void g() {}

    void h(Exception e) {}
}
