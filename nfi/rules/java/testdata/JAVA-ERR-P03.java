class A {
    void f() {
        try {
            g();
        } catch (Throwable t) { // want "JAVA-ERR-P03"
            h();
        }
        try {
            g();
        } catch (Error e) {
            h();
        }
    }

    void g() {}

    void h() {}
}
