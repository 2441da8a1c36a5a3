class A {
    void f() {
        System.gc(); // want "JAVA-LIB-P03"
        Runtime.getRuntime().gc(); // want "JAVA-LIB-P03"
        Runtime.getRuntime().availableProcessors();
    }
}
