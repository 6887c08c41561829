// Prettier, set to the code base's own style (measured: of the widths tried, 176 changes the fewest
// existing lines; Prettier's other defaults already match). `npm run format` writes,
// `npm run format:check` checks; what it leaves alone is in .prettierignore.
/** @type {import('prettier').Config} */
const config = {
  printWidth: 176,
  singleQuote: true,
};

export default config;
