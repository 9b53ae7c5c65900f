// Stylesheets are imported for esbuild, which bundles them into main.css; they export nothing.
declare module '*.css';
