new Promise(async (resolve) => resolve(1)); // want "JS-ERR-P03"
new Promise(async function (resolve) { resolve(1); }); // want "JS-ERR-P03"
new Promise((resolve) => resolve(1));
new Other(async () => 1);
