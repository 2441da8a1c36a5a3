// Fixture for testlog's Mocha golden: nested suites, pending, failure, hook failure.
const assert = require('assert');

describe('Stack', function () {
  let items;
  beforeEach(function () {
    items = [];
  });
  it('starts empty', function () {
    assert.strictEqual(items.length, 0);
  });
  it('pushes and pops', function () {
    items.push(1);
    assert.strictEqual(items.pop(), 1);
  });
  describe('peek', function () {
    it('returns the top item', function () {
      items.push(1, 2);
      assert.strictEqual(items[items.length - 1], 2);
    });
    it('returns undefined when empty (wrong on purpose)', function () {
      assert.strictEqual(items[items.length - 1], null);
    });
  });
  it.skip('is thread safe');
  it('is pending without a body');
});

describe('Queue', function () {
  before(function () {
    throw new Error('queue fixture unavailable');
  });
  it('enqueues', function () {
    assert.ok(true);
  });
});
