function ok(a) {
  return a && a;
}
function bad(a) { // want "JS-LOG-T01"
  return a && a && a && a && a && a && a && a && a && a && a && a && a && a && a && a && a && a && a && a && a;
}
