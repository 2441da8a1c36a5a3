function a() {} // want "JS-STY-P08"
const b = () => {}; // want "JS-STY-P08"
function c() {
  // intentionally empty
}
class K {
  m() {} // want "JS-STY-P08"
  constructor(private x: number) {}
}
const d = () => 1;
