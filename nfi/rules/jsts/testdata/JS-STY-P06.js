const a = "a" + "b"; // want "JS-STY-P06"
const b = "a" + x + "b";
const c = x + "a" + "b"; // want "JS-STY-P06"
const d = "a" +
  "b";
const e = `a` + "b"; // want "JS-STY-P06"
const f = 1 + 2;
