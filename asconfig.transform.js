// asc transform: declares the low 1 KB of linear memory unused, so binaryen folds the constant in
// `load(p + C)` into the load's offset immediate (`load offset=C (p)`), as it does for asc's default
// memory base. asconfig.json's memoryBase (the parts' headers sit below 2048) turns that off, and the
// core reads memory through helpers (assembly/memory.ts) that take one address: without this each
// field access in the hot loops costs an i32.add. The fold changes behaviour only for an address
// that wraps past 2^32 onto the first 1 KB, which no pointer in the core does.
export default class FoldOffsets {
  afterCompile() {
    this.binaryen.setLowMemoryUnused(true);
  }
}
