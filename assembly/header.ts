// Reads and writes of the shared header (layout drawn in layout/grid.ts).
import { HEADER } from "../layout/grid.ts";

// @ts-ignore: decorator
@inline export function hdr(field: i32): i32 {
  return load<i32>(HEADER + (field << 2));
}

// @ts-ignore: decorator
@inline export function hdrF(field: i32): f32 {
  return load<f32>(HEADER + (field << 2));
}

// @ts-ignore: decorator
@inline export function setHdr(field: i32, value: i32): void {
  store<i32>(HEADER + (field << 2), value);
}

// @ts-ignore: decorator
@inline export function setHdrF(field: i32, value: f32): void {
  store<f32>(HEADER + (field << 2), value);
}
