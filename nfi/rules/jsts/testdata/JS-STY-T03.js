function ok() {
  g();
  g();
  g();
  g();
  g();
  g();
  g();
  g();
  g();
  g();
}
function bad() { // want "JS-STY-T03"
  g();
  g();
  g();
  g();
  g();
  if (x) {
    g();
    g();
    g();
    g();
    g();
  }
}
