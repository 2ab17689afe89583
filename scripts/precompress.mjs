#!/usr/bin/env node
// After the build: brotli and gzip copies of the client's JS and CSS, so the
// server sends them (preCompressed) without compressing on every request.
import { readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { brotliCompressSync, constants, gzipSync } from 'node:zlib';

const root = `${process.env.BUILD_DIR ?? 'build'}/client`;
let files = 0;
let raw = 0;
let br = 0;
function walk(dir) {
  for (const name of readdirSync(dir)) {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) walk(path);
    else if (/\.(js|css|svg|json)$/.test(name)) {
      const body = readFileSync(path);
      const brotli = brotliCompressSync(body, { params: { [constants.BROTLI_PARAM_QUALITY]: 11 } });
      writeFileSync(`${path}.br`, brotli);
      writeFileSync(`${path}.gz`, gzipSync(body, { level: 9 }));
      files += 1;
      raw += body.length;
      br += brotli.length;
    }
  }
}
walk(root);
console.log(`precompressed ${files} files: ${(raw / 1024).toFixed(0)} KiB → ${(br / 1024).toFixed(0)} KiB brotli`);
