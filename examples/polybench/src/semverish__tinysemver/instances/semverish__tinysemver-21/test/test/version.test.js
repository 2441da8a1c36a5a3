'use strict';

const assert = require('assert');
const { parse, format, compare, sort } = require('../index');

describe('parse', function () {
  it('reads all parts', function () {
    assert.deepStrictEqual(parse('v1.2.3-beta.1+sha.5114f85'), {
      major: 1, minor: 2, patch: 3, prerelease: ['beta', '1'], build: ['sha', '5114f85'],
    });
  });

  it('rejects leading zeros and junk', function () {
    for (const bad of ['01.2.3', '1.2', '1.2.3.4', '1.2.3-', 'latest']) {
      assert.throws(() => parse(bad), TypeError, bad);
    }
  });

  it('round-trips through format', function () {
    assert.strictEqual(format(parse('2.0.0-rc.1+build.7')), '2.0.0-rc.1+build.7');
  });
});

describe('compare', function () {
  it('orders by major, minor, patch numerically', function () {
    assert.strictEqual(compare('1.2.3', '1.10.0'), -1);
    assert.strictEqual(compare('2.0.0', '1.99.99'), 1);
  });

  it('puts a prerelease before its release', function () {
    assert.strictEqual(compare('1.0.0-rc.1', '1.0.0'), -1);
  });

  it('compares numeric prerelease identifiers numerically', function () {
    assert.strictEqual(compare('1.0.0-alpha.2', '1.0.0-alpha.10'), -1);
    assert.strictEqual(compare('1.0.0-rc.11', '1.0.0-rc.9'), 1);
  });

  it('ranks numeric identifiers below alphanumeric ones', function () {
    assert.strictEqual(compare('1.0.0-1', '1.0.0-alpha'), -1);
    assert.strictEqual(compare('1.0.0-alpha.beta', '1.0.0-alpha.1'), 1);
  });

  it('orders the precedence example of the SemVer specification', function () {
    const spec = ['1.0.0-alpha', '1.0.0-alpha.1', '1.0.0-alpha.beta', '1.0.0-beta',
      '1.0.0-beta.2', '1.0.0-beta.11', '1.0.0-rc.1', '1.0.0'];
    assert.deepStrictEqual(sort(spec.slice().reverse()), spec);
  });

  it('ignores build metadata', function () {
    assert.strictEqual(compare('1.0.0+a', '1.0.0+b'), 0);
  });

  it('sorts versions', function () {
    assert.deepStrictEqual(sort(['1.0.0', '0.9.1', '1.0.0-alpha']), ['0.9.1', '1.0.0-alpha', '1.0.0']);
  });
});
