switch (x) {
  case 1:
    break;
  case 1: // want "JS-LOG-P04"
    break;
  case a.b:
  case (a.b): // want "JS-LOG-P04"
  case 2:
    break;
}
