// dist/hitcore.js, written by npm run build:js: bindings/js_kernel.ts types what it uses.
export declare function createCore(): unknown;
