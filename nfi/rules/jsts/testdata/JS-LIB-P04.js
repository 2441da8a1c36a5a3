a.hasOwnProperty("x"); // want "JS-LIB-P04"
a?.isPrototypeOf(b); // want "JS-LIB-P04"
a["propertyIsEnumerable"]("x"); // want "JS-LIB-P04"
Object.prototype.hasOwnProperty.call(a, "x");
Object.hasOwn(a, "x");
