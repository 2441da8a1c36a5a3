try { // want "JS-ERR-P02"
  f();
} catch (e) {
  throw e;
}
try {
  f();
} catch (e) { // want "JS-ERR-P02"
  throw e;
} finally {
  g();
}
try {
  f();
} catch (e) {
  throw other;
}
