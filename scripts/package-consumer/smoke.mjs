// ESM consumer: `import` every entry point of the installed package and exercise the main one.
// Prints a JSON report on stdout; the checks themselves throw.
import { exercise } from './exercise.cjs';

const report = {};
for (const specifier of process.argv.slice(2)) {
  const entry = await import(specifier);
  report[specifier] = { exports: Object.keys(entry).sort() };
}
const [main] = process.argv.slice(2);
report[main].exercised = await exercise(await import(main));
console.log(JSON.stringify(report));
