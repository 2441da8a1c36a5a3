class A {
    long a = 10l; // want "JAVA-STY-P08"
    long b = 0x1Fl; // want "JAVA-STY-P08"
    long c = 10L;
    long d = 10;
}
