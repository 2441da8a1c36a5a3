class A {
    private int unusedCount; // want "JAVA-LOG-P05"
    private int count;
    private int viaThis;
    private static final long serialVersionUID = 1L;
    @Deprecated
    private int annotated;

    int count() {
        return count + this.viaThis;
    }
}
