// Fixture for testlog's TAP golden: node:test subtests, skip, todo, failure.
import test from 'node:test';
import assert from 'node:assert/strict';

const range = (n) => Array.from({ length: n }, (_, i) => i);

test('range', async (t) => {
  await t.test('counts from zero', () => {
    assert.deepEqual(range(3), [0, 1, 2]);
  });
  await t.test('is empty for zero', () => {
    assert.deepEqual(range(0), []);
  });
  await t.test('nested group', async (t) => {
    await t.test('deep leaf', () => {
      assert.equal(range(1).length, 1);
    });
  });
});

test('range of negative length throws (wrong on purpose)', () => {
  assert.throws(() => range(-1));
});

test('skipped with a # hash', { skip: 'not yet' }, () => {});

test('todo that fails', { todo: 'later' }, () => {
  assert.equal(1, 2);
});

test('todo that passes', { todo: true }, () => {});
