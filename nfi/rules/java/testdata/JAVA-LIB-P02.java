class A {
    void f() {
        System.exit(1); // want "JAVA-LIB-P02"
        Runtime.getRuntime().halt(2); // want "JAVA-LIB-P02"
    }

    public static void main(String[] args) {
        System.exit(0);
    }
}
