// box-intersect's typedarray-pool (a CommonJS dependency) keeps its pool on Node's `global`, which
// browsers lack; bundled for the page it would throw "global is not defined". Imported by the
// box-intersect adapter before box-intersect itself. (Its `require('buffer')` is served in the page
// by the `buffer` devDependency.)
const scope = globalThis as { global?: unknown };
scope.global ??= globalThis;
export {};
