console.log(1); // want "JS-LIB-P03"
console["warn"](2); // want "JS-LIB-P03"
logger.log(3);
