// The registry reachable from our machines carries only the linux-x64 builds of packages with
// per-platform binaries (rollup, rolldown, esbuild...), so npm cannot record the other platforms'
// optional packages in package-lock.json, and `npm ci` then refuses the lock as out of sync.
// This drops, from each locked package, the optional dependencies that have no entry in the lock.
// Run after `npm install`: `node scripts/prune-lock.mjs` (docs/web.md).
import { readFileSync, writeFileSync } from 'node:fs';

const path = new URL('../package-lock.json', import.meta.url);
const lock = JSON.parse(readFileSync(path, 'utf8'));
const packages = lock.packages ?? {};

function locked(from, name) {
  // Node's resolution: nested node_modules first, then each ancestor, then the root.
  let dir = from;
  for (;;) {
    const candidate = `${dir ? `${dir}/` : ''}node_modules/${name}`;
    if (candidate in packages) return true;
    if (!dir) return false;
    const at = dir.lastIndexOf('node_modules/');
    dir = at <= 0 ? '' : dir.slice(0, at - 1);
  }
}

let dropped = 0;
for (const [key, pkg] of Object.entries(packages)) {
  if (!pkg.optionalDependencies) continue;
  for (const name of Object.keys(pkg.optionalDependencies)) {
    if (!locked(key, name)) {
      delete pkg.optionalDependencies[name];
      dropped += 1;
    }
  }
  if (Object.keys(pkg.optionalDependencies).length === 0) delete pkg.optionalDependencies;
}
writeFileSync(path, `${JSON.stringify(lock, null, 2)}\n`);
console.log(`prune-lock: dropped ${dropped} optional dependencies this registry does not carry`);
