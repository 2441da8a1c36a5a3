class A {
    void f(boolean a, boolean b, boolean c) {
        if (a) {
            if (b) {
                if (c) { // want "JAVA-STY-T04"
                    g();
                }
            }
        }
        if (a) {
            if (b) {
                g();
            } else {
                if (c) {
                    g();
                }
            }
        }
    }

    void g() {}
}
