// Fixture: a test file that fails to load.
const missing = require('./does-not-exist');

test('never runs', () => {
  expect(missing).toBeDefined();
});
