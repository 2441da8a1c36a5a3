import test from 'node:test';
import assert from 'node:assert';
import { RetryQueue } from '../src/queue';

test('a job that succeeds runs once', () => {
  const q = new RetryQueue({});
  let runs = 0;
  q.add('a', () => {
    runs += 1;
  });
  assert.deepStrictEqual(q.drain(), { done: ['a'], dead: [], delays: [0] });
  assert.strictEqual(runs, 1);
});

test('a failing job is retried with doubling delays, then dead', () => {
  const q = new RetryQueue({ maxAttempts: 4, baseDelayMs: 50 });
  q.add('x', () => {
    throw new Error('boom');
  });
  assert.deepStrictEqual(q.drain(), { done: [], dead: ['x'], delays: [0, 50, 100, 200] });
  assert.strictEqual(q.get('x'), undefined);
});

test('jobs run in order and a retried job goes to the back', () => {
  const q = new RetryQueue({ maxAttempts: 3 });
  let flaky = 0;
  q.add('flaky', () => {
    flaky += 1;
    if (flaky < 2) {
      throw new Error('once');
    }
  });
  q.add('ok', () => undefined);
  assert.deepStrictEqual(q.drain(), { done: ['ok', 'flaky'], dead: [], delays: [0, 0, 100] });
});

test('adding an id again replaces the job without queueing it twice', () => {
  const q = new RetryQueue({});
  const seen: string[] = [];
  q.add('j', () => seen.push('first'));
  q.add('j', () => seen.push('second'));
  q.drain();
  assert.deepStrictEqual(seen, ['second']);
});

test('defaults: three attempts, 100 ms base delay', () => {
  const q = new RetryQueue({});
  assert.strictEqual(q.delayFor(0), 0);
  assert.strictEqual(q.delayFor(1), 100);
  assert.strictEqual(q.delayFor(3), 400);
});
