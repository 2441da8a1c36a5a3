if (a) {} // want "JS-LOG-P10"
try { f(); } catch (e) {} // want "JS-LOG-P10"
if (b) {
  // comment: intentionally empty
}
function empty() {}
switch (a) {} // want "JS-LOG-P10"
