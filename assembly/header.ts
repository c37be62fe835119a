// Reads and writes of the grid's header (layout drawn in layout/grid.ts): one 4-byte field per
// slot at HEADER + 4 * field; f64 fields take two slots from an even field (8-byte aligned).
import { HEADER } from "../layout/grid.ts";
import { f32At, f64At, i32At, setF32, setF64, setI32 } from "./memory.ts";

// @ts-ignore: decorator
@inline export function hdr(field: i32): i32 {
  return i32At(HEADER + (field << 2));
}

// @ts-ignore: decorator
@inline export function hdrF(field: i32): f32 {
  return f32At(HEADER + (field << 2));
}

// @ts-ignore: decorator
@inline export function hdrD(field: i32): f64 {
  return f64At(HEADER + (field << 2));
}

// @ts-ignore: decorator
@inline export function setHdr(field: i32, value: i32): void {
  setI32(HEADER + (field << 2), value);
}

// @ts-ignore: decorator
@inline export function setHdrF(field: i32, value: f32): void {
  setF32(HEADER + (field << 2), value);
}

// @ts-ignore: decorator
@inline export function setHdrD(field: i32, value: f64): void {
  setF64(HEADER + (field << 2), value);
}
