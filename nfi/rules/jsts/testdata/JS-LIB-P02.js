new Function("a", "return a"); // want "JS-LIB-P02"
Function("return 1"); // want "JS-LIB-P02"
Function.call(null, "x"); // want "JS-LIB-P02"
new Other("x");
