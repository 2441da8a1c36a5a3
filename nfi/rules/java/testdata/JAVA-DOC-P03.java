class A {
    // TODO: handle overflow
    int x; // want:2 "JAVA-DOC-P03"
    /* TODO: not yet */ int y; // want "JAVA-DOC-P03"
    // TODO without a colon is not the default format
    int z;
}
