// The one door to the parts' headers: one 4-byte field per slot at base + 4 * field, f64 fields
// taking two slots from an even one (8-byte aligned). Each part names its header's base once
// (layout/grid.ts) and reads its fields through these; the grid's own short names follow.
import { HEADER } from "../layout/grid.ts";
import { f32At, f64At, i32At, setF32, setF64, setI32 } from "./memory.ts";

/** Address of field `field` of the header at `base`. */
// @ts-ignore: decorator
@inline export function fieldAt(base: i32, field: i32): i32 {
  return base + (field << 2);
}

// @ts-ignore: decorator
@inline export function headerI32(base: i32, field: i32): i32 {
  return i32At(base + (field << 2));
}

// @ts-ignore: decorator
@inline export function headerF32(base: i32, field: i32): f32 {
  return f32At(base + (field << 2));
}

// @ts-ignore: decorator
@inline export function headerF64(base: i32, field: i32): f64 {
  return f64At(base + (field << 2));
}

// @ts-ignore: decorator
@inline export function setHeaderI32(base: i32, field: i32, value: i32): void {
  setI32(base + (field << 2), value);
}

// @ts-ignore: decorator
@inline export function setHeaderF32(base: i32, field: i32, value: f32): void {
  setF32(base + (field << 2), value);
}

// @ts-ignore: decorator
@inline export function setHeaderF64(base: i32, field: i32, value: f64): void {
  setF64(base + (field << 2), value);
}

// The grid's header (layout/grid.ts).

// @ts-ignore: decorator
@inline export function hdr(field: i32): i32 {
  return headerI32(HEADER, field);
}

// @ts-ignore: decorator
@inline export function hdrF(field: i32): f32 {
  return headerF32(HEADER, field);
}

// @ts-ignore: decorator
@inline export function hdrD(field: i32): f64 {
  return headerF64(HEADER, field);
}

// @ts-ignore: decorator
@inline export function setHdr(field: i32, value: i32): void {
  setHeaderI32(HEADER, field, value);
}

// @ts-ignore: decorator
@inline export function setHdrF(field: i32, value: f32): void {
  setHeaderF32(HEADER, field, value);
}

// @ts-ignore: decorator
@inline export function setHdrD(field: i32, value: f64): void {
  setHeaderF64(HEADER, field, value);
}
