// The links between the demo pages, the same on every page: each page's <nav class="pages"> is
// filled from PAGES, the page itself named in bold.

/** Every demo page (its file without .html) and its name in the links, in link order. */
const PAGES = [
  ["index", "bullet hell"], ["arena", "arena"], ["replay", "replay"], ["surfaces", "surfaces"], ["polyhedra", "polyhedra"],
  ["rects", "rect levels"], ["casts", "casts"], ["tower", "tower"], ["tiled", "Tiled"], ["peers", "vs peers"],
] as const;

const nav = document.querySelector("nav.pages");
if (nav) {
  const file = location.pathname.split("/").pop()?.replace(/\.html$/, "") || "index";
  PAGES.forEach(([page, name], k) => {
    if (k > 0) nav.append(" · ");
    const link = page === file ? document.createElement("b") : Object.assign(document.createElement("a"), { href: `./${page}.html` });
    link.textContent = name;
    nav.append(link);
  });
}
