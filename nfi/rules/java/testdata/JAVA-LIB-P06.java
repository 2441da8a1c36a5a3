class A {
    Integer a = new Integer(5); // want "JAVA-LIB-P06"
    Boolean b = new java.lang.Boolean(true); // want "JAVA-LIB-P06"
    Integer c = Integer.valueOf(5);
    StringBuilder d = new StringBuilder();
}
