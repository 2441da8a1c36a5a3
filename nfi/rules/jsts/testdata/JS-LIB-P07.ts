let f: Function; // want "JS-LIB-P07"
let g: () => void;
function run(cb: Function) {} // want "JS-LIB-P07"
