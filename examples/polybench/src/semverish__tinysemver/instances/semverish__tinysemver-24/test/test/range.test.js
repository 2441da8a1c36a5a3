'use strict';

const assert = require('assert');
const { satisfies, maxSatisfying } = require('../index');

describe('satisfies', function () {
  it('handles comparator sets', function () {
    assert.ok(satisfies('1.4.2', '>=1.2.0 <2.0.0'));
    assert.ok(!satisfies('2.0.0', '>=1.2.0 <2.0.0'));
  });

  it('handles alternatives', function () {
    assert.ok(satisfies('3.1.0', '1.x || >=3.0.0'));
  });

  it('handles x-ranges', function () {
    assert.ok(satisfies('1.9.9', '1.x'));
    assert.ok(!satisfies('1.3.0', '1.2.x'));
    assert.ok(satisfies('0.0.1', '*'));
  });

  it('handles tilde ranges', function () {
    assert.ok(satisfies('1.2.9', '~1.2.3'));
    assert.ok(!satisfies('1.3.0', '~1.2.3'));
  });

  it('handles caret ranges', function () {
    assert.ok(satisfies('1.9.0', '^1.2.3'));
    assert.ok(satisfies('1.2.3', '^1.2.3'));
    assert.ok(!satisfies('1.2.2', '^1.2.3'));
    assert.ok(!satisfies('2.0.0', '^1.2.3'));
  });

  it('keeps caret ranges below 1.0.0 within the left-most non-zero part', function () {
    assert.ok(satisfies('0.2.9', '^0.2.3'));
    assert.ok(!satisfies('0.3.0', '^0.2.3'));
    assert.ok(!satisfies('0.0.4', '^0.0.3'));
  });

  it('combines caret ranges with alternatives', function () {
    assert.strictEqual(maxSatisfying(['1.5.0', '2.1.0', '3.0.0'], '^1.0.0 || ^2.0.0'), '2.1.0');
  });

  it('rejects invalid versions', function () {
    assert.ok(!satisfies('not-a-version', '*'));
  });
});

describe('maxSatisfying', function () {
  it('picks the highest match', function () {
    assert.strictEqual(maxSatisfying(['1.2.0', '1.4.1', '2.0.0'], '1.x'), '1.4.1');
  });

  it('returns null when nothing matches', function () {
    assert.strictEqual(maxSatisfying(['1.2.0'], '>=3.0.0'), null);
  });
});
