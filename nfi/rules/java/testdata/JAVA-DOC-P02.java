class A {
    A() {} // want "JAVA-DOC-P02"

    A(int x) {
        // deliberately empty
    }

    private A(String s) {}

    A(long x) {
        this();
    }

    @javax.inject.Inject
    A(double d) {}

    enum E {
        X;
        E() {}
    }
}
