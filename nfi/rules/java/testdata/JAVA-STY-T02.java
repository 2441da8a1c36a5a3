class A {
    void f(int a, int b, int c, int d, int e, int f, int g, int h, int i, int j) { // want "JAVA-STY-T02"
    }

    void g(int a, int b, int c, int d, int e, int f, int g, int h, int i) {
    }

    A(int a, int b, int c, int d, int e, int f, int g, int h, int i, int... j) { // want "JAVA-STY-T02"
    }
}
