// After `vite build`: a Brotli copy (`NAME.br`, quality 11) beside every text asset in dist/assets,
// which the gateway serves to browsers that accept it (tower-http ServeDir's precompressed files;
// Envoy leaves an encoded answer as it is). The files are hashed and cached for a year, so the
// build pays the slow, small compression once instead of Envoy's gzip on every first download.
// Run: `node scripts/precompress.mjs [dist]` (part of `npm run build`).
import fs from 'node:fs';
import path from 'node:path';
import zlib from 'node:zlib';

const dist = process.argv[2] ?? 'dist';
const TEXT = /\.(js|css|json|svg|webmanifest|html)$/;
const assets = path.join(dist, 'assets');
let raw = 0;
let packed = 0;
for (const name of fs.readdirSync(assets)) {
  if (!TEXT.test(name)) continue;
  const file = path.join(assets, name);
  const bytes = fs.readFileSync(file);
  // Small files gain nothing worth a second file.
  if (bytes.length < 1024) continue;
  const brotli = zlib.brotliCompressSync(bytes, {
    params: {
      [zlib.constants.BROTLI_PARAM_QUALITY]: bytes.length > 1_000_000 ? 9 : 11,
      [zlib.constants.BROTLI_PARAM_SIZE_HINT]: bytes.length,
    },
  });
  fs.writeFileSync(`${file}.br`, brotli);
  raw += bytes.length;
  packed += brotli.length;
}
console.log(`precompress: ${(raw / 1000).toFixed(0)} kB of assets, ${(packed / 1000).toFixed(0)} kB as Brotli`);
