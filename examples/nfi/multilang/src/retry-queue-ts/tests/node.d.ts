// The few declarations of Node's test runner and assert module the tests
// use (the environment has TypeScript but no @types/node).
declare module 'node:test' {
  export default function test(name: string, fn: () => void): void;
}

declare module 'node:assert' {
  const assert: {
    strictEqual(actual: unknown, expected: unknown): void;
    deepStrictEqual(actual: unknown, expected: unknown): void;
  };
  export default assert;
}
