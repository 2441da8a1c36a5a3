import sun.misc.Unsafe; // want "JAVA-LIB-P08"
import sun.misc.Signal; // want "JAVA-LIB-P08"
import java.util.List;
import static sun.nio.ch.Util.*; // want "JAVA-LIB-P08"

class A {
}
