// Types of scripts/size.mjs for tests/size.test.ts.
export interface Size {
  raw: number;
  gzip: number;
}
export interface SizeRow {
  key: "node" | "browser" | "page-script" | "tiled" | "worker" | "single" | "core" | "core-simd" | "js" | "page-simd" | "page";
  what: string;
  how: string;
  size: Size;
}
export declare function measureSizes(): Promise<SizeRow[]>;
