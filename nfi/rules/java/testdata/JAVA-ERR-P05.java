class A {
    void f(Object o) {
        if (o == null) {
            throw new NullPointerException("o"); // want "JAVA-ERR-P05"
        }
        if (o.hashCode() == 0) {
            throw new IllegalArgumentException("o");
        }
    }
}
