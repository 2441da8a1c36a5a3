import java.math.BigDecimal;

class A {
    BigDecimal a = new BigDecimal(0.1); // want "JAVA-LIB-P07"
    BigDecimal b = new BigDecimal(-1.5e3); // want "JAVA-LIB-P07"
    BigDecimal c = new BigDecimal("0.1");
    BigDecimal d = new BigDecimal(10);
}
