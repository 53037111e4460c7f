// How dependency-cruiser resolves imports (.dependency-cruiser.cjs): tsconfig.json's `@/` alias, given directly.
// Read through tsconfig.json instead, a bare `inngest` (the package) resolved to the repository's inngest/ folder.
module.exports = { resolve: { alias: { "@": `${__dirname}/..` } } };
