// Vite config for the bullet-hell demo: `npm start` serves it, `npm run demo:build` bundles it.
// The demo imports the library's TS sources and the wasm core that `npm run build` writes to dist/.
import { fileURLToPath } from "node:url";
import { defineConfig } from "vite";

const demoRoot = fileURLToPath(new URL(".", import.meta.url));
const repoRoot = fileURLToPath(new URL("..", import.meta.url));

export default defineConfig({
  root: demoRoot,
  // Relative asset URLs, so demo-dist/ works from any path (a static host's subfolder, a test server).
  base: "./",
  server: {
    // `../dist/hitcore.wasm?url`, bindings/ and bench/ live outside the demo root.
    fs: { allow: [repoRoot] },
  },
  build: {
    outDir: "../demo-dist",
    emptyOutDir: true,
    // Keep the core a separate file even if it shrinks below the inline limit: a real
    // application/wasm response lets the browser compile it while it downloads.
    assetsInlineLimit: (file) => (file.endsWith(".wasm") ? false : undefined),
  },
});
