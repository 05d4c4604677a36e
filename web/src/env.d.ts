/** Stylesheets are bundled by esbuild (scripts/build-pages.mjs): importing one only includes it. */
declare module '*.css';
