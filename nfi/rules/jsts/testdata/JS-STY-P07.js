outer: for (;;) { // want "JS-STY-P07"
  break outer; // want "JS-STY-P07"
}
for (;;) {
  break;
}
