class A {
    void f(int x) throws Exception {
        if (x == 1) {
            throw new RuntimeException("one"); // want "JAVA-ERR-P04"
        }
        if (x == 2) {
            throw new Exception("two"); // want "JAVA-ERR-P04"
        }
        if (x == 3) {
            throw new java.lang.Error(); // want "JAVA-ERR-P04"
        }
        if (x == 4) {
            throw new IllegalStateException("four");
        }
        RuntimeException e = new RuntimeException();
        throw e;
    }
}
