// One entry of the built package bundled as a page would ship it, with Vite (a normal build, not
// lib mode, which would inline the .wasm files the browser entry locates with new URL): every
// module the entry imports, minified, in memory. Shared by the single-file build and the sizes.
import { fileURLToPath } from "node:url";
import { build } from "vite";

export const repoRoot = fileURLToPath(new URL("..", import.meta.url));

/**
 * The minified chunks of `entry` (a path under the repository): `code` is the entry chunk's,
 * `lazy` the chunks it imports on demand (the js backend). `oneFile` inlines those too.
 * `plugins` go to Vite (the single-file build's stand-in for the js backend).
 */
export async function bundle(entry, { plugins = [], oneFile = false } = {}) {
  const result = await build({
    configFile: false,
    logLevel: "silent",
    root: repoRoot,
    plugins,
    build: {
      write: false,
      minify: true,
      target: "es2022",
      // The cores stay files next to the bundle, as the browser entry fetches them.
      assetsInlineLimit: () => false,
      modulePreload: false,
      copyPublicDir: false,
      rollupOptions: {
        input: entry,
        preserveEntrySignatures: "strict",
        external: [/^node:/],
        // Vite's plugins spend most of this build's time, which rolldown would report as a warning.
        checks: { bundlerTimings: false },
        output: oneFile ? { format: "es", codeSplitting: false } : { format: "es" },
      },
    },
  });
  const chunks = (Array.isArray(result) ? result[0] : result).output.filter((c) => c.type === "chunk");
  const main = chunks.find((c) => c.isEntry);
  if (!main) throw new Error(`bundle: no entry chunk for ${entry}`);
  return { code: main.code, lazy: chunks.filter((c) => c !== main).map((c) => c.code) };
}
