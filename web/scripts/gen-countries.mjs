// Generates src/lib/countries/countries.json (id, name, dialCode) from the `country-codes-list`
// package, so the bundle carries only what the phone country-code picker needs and the backend
// can read the same list of known dialing codes.
import { writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { createRequire } from 'node:module';

const require = createRequire(import.meta.url);
const { all } = require('country-codes-list');

const countries = all()
  .filter((c) => /^\d{1,5}$/.test(c.countryCallingCode))
  .map((c) => ({ id: c.countryCode, name: c.countryNameEn, dialCode: `+${c.countryCallingCode}` }))
  .sort((a, b) => a.name.localeCompare(b.name, 'en'));

const out = fileURLToPath(new URL('../src/lib/countries/countries.json', import.meta.url));
writeFileSync(out, `${JSON.stringify(countries, null, 1)}\n`);
console.log(`wrote ${countries.length} countries to ${out}`);
