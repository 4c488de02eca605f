// CommonJS consumer: `require` every entry point of the installed package and exercise the main one.
'use strict';
const { exercise } = require('./exercise.cjs');

(async () => {
  const report = {};
  for (const specifier of process.argv.slice(2)) {
    report[specifier] = { exports: Object.keys(require(specifier)).sort() };
  }
  const [main] = process.argv.slice(2);
  report[main].exercised = await exercise(require(main));
  console.log(JSON.stringify(report));
})().catch((error) => {
  console.error(error);
  process.exit(1);
});
