function f() {
  return arguments.callee; // want "JS-LIB-P09"
}
function g() {
  return arguments.caller; // want "JS-LIB-P09"
}
function h() {
  return arguments.length;
}
