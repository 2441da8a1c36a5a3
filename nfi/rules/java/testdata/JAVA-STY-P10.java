class A {
    int numberOfIncomingRequests; // want "JAVA-STY-P10"
    int seventeenCharsAbc;

    void f(int parameterNameIsTooLong) { // want "JAVA-STY-P10"
        int shortName = parameterNameIsTooLong;
    }
}
