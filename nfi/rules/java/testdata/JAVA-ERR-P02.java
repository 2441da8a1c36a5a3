class A {
    void f() {
        try {
            g();
        } catch (Exception e) { // want "JAVA-ERR-P02"
            h();
        }
        try {
            g();
        } catch (IllegalStateException | RuntimeException e) { // want "JAVA-ERR-P02"
            h();
        }
        try {
            g();
        } catch (java.lang.NullPointerException e) { // want "JAVA-ERR-P02"
            h();
        }
        try {
            g();
        } catch (IllegalArgumentException e) {
            h();
        }
        try {
            g();
        } catch (com.example.Exception e) {
            h();
        }
    }

    void g() {}

    void h() {}
}
