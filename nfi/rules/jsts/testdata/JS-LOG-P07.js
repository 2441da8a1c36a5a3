if (typeof x === "strng") {} // want "JS-LOG-P07"
if (typeof x == undefined) {} // want "JS-LOG-P07"
if (typeof x === "string") {}
if (typeof x !== `object`) {}
if (typeof x === y) {}
