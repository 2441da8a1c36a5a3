const a = obj.__proto__; // want "JS-LIB-P10"
const b = obj["__proto__"]; // want "JS-LIB-P10"
const c = Object.getPrototypeOf(obj);
