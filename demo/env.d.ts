// Vite's client types: `import wasmUrl from "../dist/hitcore.wasm?url"` is a string URL.
/// <reference types="vite/client" />
