class A {
    static final int maxSize = 10; // want "JAVA-STY-P05"
    static final int MAX_SIZE = 10;
    private static final long serialVersionUID = 1L;
    static int notConstant = 1;
    final int instanceFinal = 2;
    static final String A__B = "x"; // want "JAVA-STY-P05"

    interface I {
        int lowercase = 1; // want "JAVA-STY-P05"
        int UPPER = 2;
    }
}
