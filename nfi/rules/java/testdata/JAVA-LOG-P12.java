class A {
    int mode = 0644; // want "JAVA-LOG-P12"
    int small = 07;
    int zero = 0;
    long big = 012L; // want "JAVA-LOG-P12"
    int dec = 420;
}
