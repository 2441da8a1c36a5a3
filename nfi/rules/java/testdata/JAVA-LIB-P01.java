class A {
    void f(int x) {
        System.out.println(x); // want "JAVA-LIB-P01"
        System.err.printf("%d%n", x); // want "JAVA-LIB-P01"
        System.out.print(x); // want "JAVA-LIB-P01"
        System.out.flush();
        java.io.PrintStream out = System.out;
        out.println(x);
    }
}
