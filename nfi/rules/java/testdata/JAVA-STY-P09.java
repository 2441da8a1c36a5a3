class A {
    int a[] = new int[1]; // want "JAVA-STY-P09"
    int[] b = new int[1];

    void main(String args[]) { // want "JAVA-STY-P09"
        int[] c = b;
    }
}
