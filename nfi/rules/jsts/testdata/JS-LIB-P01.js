eval("x"); // want "JS-LIB-P01"
const e = eval; // want "JS-LIB-P01"
globalThis.eval("y"); // want "JS-LIB-P01"
obj.eval("z");
