class A {
    void empty() {} // want "JAVA-DOC-P01"

    void commented() {
        // intentionally empty
    }

    void blockCommented() { /* no-op */ }

    void notEmpty() {
        empty();
    }

    abstract static class B {
        abstract void noBody();
    }

    A() {}
}
