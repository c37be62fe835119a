// The js backend's compiled core (dist/js/assembly/*.js, written by npm run build:js): each module
// exports functions over numbers; bindings/js_kernel.ts types them through the Kernel interfaces.
declare const exports: Record<string, unknown>;
export = exports;
