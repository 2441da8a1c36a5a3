class A {
    boolean f(Object o) {
        boolean a = o.equals(null); // want "JAVA-LOG-P09"
        boolean b = o.equals(o);
        return a && b && o == null;
    }
}
