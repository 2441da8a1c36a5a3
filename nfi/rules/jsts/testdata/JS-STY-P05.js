if (a) {
  f();
} else {
  if (b) { // want "JS-STY-P05"
    g();
  }
}
if (a) {
  f();
} else {
  if (b) {
    g();
  }
  h();
}
