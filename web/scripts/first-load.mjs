// What a first visit downloads from a build (`dist/`, after `npm run build`): the entry chunk, the
// chunks it imports statically (index.html preloads them), then a screen's own chunks. Sizes are
// raw and gzip (level 9) in kB of 1000 bytes; docs/benchmarks.md "Web: first-screen bundle".
// Run: `node scripts/first-load.mjs [dist]`.
import fs from 'node:fs';
import path from 'node:path';
import zlib from 'node:zlib';

const dist = process.argv[2] ?? 'dist';
const html = fs.readFileSync(path.join(dist, 'index.html'), 'utf8');
const entry = /<script type="module"[^>]*src="\/([^"]+)"/.exec(html)[1];

function staticImports(file) {
  const text = fs.readFileSync(path.join(dist, file), 'utf8');
  const found = new Set();
  for (const match of text.matchAll(/(?:import|export)\s*(?:[\w*{}\s,$]*?from\s*)?["'](\.\/[^"']+\.js)["']/g)) {
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

function size(files) {
  let raw = 0;
  let gzip = 0;
  for (const file of files) {
    const bytes = fs.readFileSync(path.join(dist, file));
    raw += bytes.length;
    gzip += zlib.gzipSync(bytes, { level: 9 }).length;
  }
  return `${(raw / 1000).toFixed(1)} kB, gzip ${(gzip / 1000).toFixed(1)} kB (${[...files].length} files)`;
}

const chunksOf = (name) =>
  fs
    .readdirSync(path.join(dist, 'assets'))
    .filter((file) => file.startsWith(`${name}-`) && file.endsWith('.js'))
    .map((file) => `assets/${file}`);

const initial = closure([entry]);
console.log(`entry chunk: ${size([entry])}`);
console.log(`entry and its imports: ${size(initial)}`);
for (const screens of [['StartPage'], ['DashboardLayout', 'HomePage']]) {
  const roots = screens.flatMap(chunksOf);
  if (roots.length === 0) {
    console.log(`${screens.join(' + ')}: in the entry`);
    continue;
  }
  const all = closure(roots, new Set(initial));
  console.log(`first visit of ${screens.join(' + ')}: ${size(all)}`);
}
const scripts = fs.readdirSync(path.join(dist, 'assets')).filter((file) => file.endsWith('.js'));
console.log(`all JS: ${size(scripts.map((file) => `assets/${file}`))}`);
