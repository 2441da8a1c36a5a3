const a = new String("x"); // want "JS-LIB-P11"
const b = new Number(1); // want "JS-LIB-P11"
const c = Boolean(x);
const d = new Map();
