throw "x"; // want "JS-ERR-P01"
throw 1 + 2; // want "JS-ERR-P01"
throw undefined; // want "JS-ERR-P01"
throw new Error("x");
throw err;
throw make();
throw a || "x";
throw (a, "x"); // want "JS-ERR-P01"
throw cond ? err : "x";
throw `t`; // want "JS-ERR-P01"
