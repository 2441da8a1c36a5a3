function f(a) {
  if (a) {
    for (;;) {
      while (a) {
        if (a) {
          if (a) { // want "JS-LOG-T02"
            g();
          } else if (a) {
            g();
          }
        }
      }
    }
  }
}
