// What a first visit downloads from a build (`dist/`, after `npm run build`): the entry chunk, the
// chunks it imports statically (index.html preloads them), then a screen's own chunks and theirs.
// Sizes are raw and gzip (level 9) in kB of 1000 bytes; docs/benchmarks.md "Web: first-screen
// bundle". Run: `node scripts/first-load.mjs [--check] [dist]`.
//
// With --check (the build step of ./dev test) it fails when the first visit of start, log in, home
// or My Files downloads more than BUDGET_GZIP_KB, or any of the code those screens do not need yet:
// the map (Leaflet), the card form (Stripe.js) or capture (MediaRecorder). That code is found by
// what it contains, not by chunk names, which follow the bundler's choices.
import fs from 'node:fs';
import path from 'node:path';
import zlib from 'node:zlib';

const BUDGET_GZIP_KB = 170;
const NOT_BEFORE_NEEDED = [
  { what: 'the map (Leaflet)', marker: 'leaflet-container' },
  { what: 'the card form (Stripe.js)', marker: 'js.stripe.com' },
  { what: 'capture (MediaRecorder)', marker: 'new MediaRecorder' },
];
const SCREENS = [
  { name: 'start (/)', chunks: ['StartPage'] },
  { name: 'log in (/log-in)', chunks: ['LogInPage'] },
  { name: 'home (/dashboard/home)', chunks: ['DashboardLayout', 'HomePage'] },
  { name: 'My Files (/dashboard/my-files)', chunks: ['DashboardLayout', 'MyFilesPage'] },
];

const args = process.argv.slice(2);
const check = args.includes('--check');
const dist = args.find((arg) => !arg.startsWith('--')) ?? 'dist';
const html = fs.readFileSync(path.join(dist, 'index.html'), 'utf8');
const entry = /<script type="module"[^>]*src="\/([^"]+)"/.exec(html)[1];
const text = (file) => fs.readFileSync(path.join(dist, file), 'utf8');

function staticImports(file) {
  const found = new Set();
  for (const match of text(file).matchAll(/(?:import|export)\s*(?:[\w*{}\s,$]*?from\s*)?["'](\.\/[^"']+\.js)["']/g)) {
    found.add(path.posix.join(path.posix.dirname(file), match[1]));
  }
  return found;
}

function closure(roots, seen = new Set()) {
  const stack = [...roots];
  while (stack.length > 0) {
    const file = stack.pop();
    if (seen.has(file)) continue;
    seen.add(file);
    for (const next of staticImports(file)) stack.push(next);
  }
  return seen;
}

function gzipKb(files) {
  let gzip = 0;
  for (const file of files) gzip += zlib.gzipSync(fs.readFileSync(path.join(dist, file)), { level: 9 }).length;
  return gzip / 1000;
}

function size(files) {
  let raw = 0;
  for (const file of files) raw += fs.statSync(path.join(dist, file)).size;
  return `${(raw / 1000).toFixed(1)} kB, gzip ${gzipKb(files).toFixed(1)} kB (${[...files].length} files)`;
}

const chunksOf = (name) =>
  fs
    .readdirSync(path.join(dist, 'assets'))
    .filter((file) => file.startsWith(`${name}-`) && file.endsWith('.js'))
    .map((file) => `assets/${file}`);

const failures = [];
const initial = closure([entry]);
console.log(`entry chunk: ${size([entry])}`);
console.log(`entry and its imports: ${size(initial)}`);
for (const screen of SCREENS) {
  const roots = screen.chunks.flatMap(chunksOf);
  if (roots.length < screen.chunks.length) {
    failures.push(`${screen.name}: no chunk named ${screen.chunks.join(' or ')} in ${dist}/assets`);
    continue;
  }
  const all = closure(roots, new Set(initial));
  console.log(`first visit of ${screen.name}: ${size(all)}`);
  const kb = gzipKb(all);
  if (kb > BUDGET_GZIP_KB) failures.push(`${screen.name}: ${kb.toFixed(1)} kB gzip, over the ${BUDGET_GZIP_KB} kB budget`);
  for (const { what, marker } of NOT_BEFORE_NEEDED) {
    const holder = [...all].find((file) => text(file).includes(marker));
    if (holder) failures.push(`${screen.name} loads ${what} (${holder}) before it needs it`);
  }
}
for (const { what, marker } of NOT_BEFORE_NEEDED) {
  // A marker that is nowhere would make its check pass for nothing.
  const scripts = fs.readdirSync(path.join(dist, 'assets')).filter((file) => file.endsWith('.js'));
  if (!scripts.some((file) => text(`assets/${file}`).includes(marker))) {
    failures.push(`no chunk holds ${JSON.stringify(marker)}: the check for ${what} needs a new marker`);
  }
}
const scripts = fs.readdirSync(path.join(dist, 'assets')).filter((file) => file.endsWith('.js'));
console.log(`all JS: ${size(scripts.map((file) => `assets/${file}`))}`);

if (check) {
  for (const failure of failures) console.error(`first-load: ${failure}`);
  if (failures.length > 0) process.exit(1);
  console.log(`first-load: every screen checked is under ${BUDGET_GZIP_KB} kB gzip and loads no map, card or capture code`);
}
