class A {
    boolean f(double d, float e) {
        boolean a = d == Double.NaN; // want "JAVA-LOG-P10"
        boolean b = Float.NaN != e; // want "JAVA-LOG-P10"
        boolean c = Double.isNaN(d);
        return a && b && c;
    }
}
