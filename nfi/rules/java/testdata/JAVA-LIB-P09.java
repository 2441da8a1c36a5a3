class A {
    private StringBuilder buf = new StringBuilder(); // want "JAVA-LIB-P09"
    StringBuffer old; // want "JAVA-LIB-P09"
    String s;

    String f() {
        StringBuilder local = new StringBuilder();
        return local.toString();
    }
}
