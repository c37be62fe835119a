// dist/hitcore-cores.js, written by npm run build:single: both cores, each the base64 text of its
// gzip stream, for the single-file entry (bindings/single.ts).
export declare const simd: string;
export declare const scalar: string;
