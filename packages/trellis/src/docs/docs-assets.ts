import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { etagOf } from '../resources/conditional.ts';
import { DOCS_CSS, SWAGGER_UI_INIT } from './swagger-ui-init.ts';

const require = createRequire(import.meta.url);
const DIST = dirname(require.resolve('swagger-ui-dist/package.json'));
export const SWAGGER_UI_VERSION: string = (JSON.parse(readFileSync(join(DIST, 'package.json'), 'utf8')) as { version: string }).version;

const TYPES: Readonly<Record<string, string>> = {
  js: 'text/javascript; charset=utf-8',
  css: 'text/css; charset=utf-8',
  png: 'image/png',
  map: 'application/json; charset=utf-8',
};

/** The only files served: a fixed list, so no request path ever reaches the file system. */
const FILES: Readonly<Record<string, () => Buffer>> = {
  'swagger-ui-bundle.js': () => readFileSync(join(DIST, 'swagger-ui-bundle.js')),
  'swagger-ui-bundle.js.map': () => readFileSync(join(DIST, 'swagger-ui-bundle.js.map')),
  'swagger-ui.css': () => readFileSync(join(DIST, 'swagger-ui.css')),
  'swagger-ui.css.map': () => readFileSync(join(DIST, 'swagger-ui.css.map')),
  'favicon-32x32.png': () => readFileSync(join(DIST, 'favicon-32x32.png')),
  'favicon-16x16.png': () => readFileSync(join(DIST, 'favicon-16x16.png')),
  'trellis-docs.js': () => Buffer.from(SWAGGER_UI_INIT),
  'trellis-docs.css': () => Buffer.from(DOCS_CSS),
};

export interface Asset {
  readonly type: string;
  readonly body: Buffer;
  /** Null for already-compressed types (PNG). */
  gzip(): Buffer | null;
  readonly etag: string;
}

/** Loaded on first request and kept: the bundle is 1.4 MB, and most apps never serve it. */
const cache = new Map<string, Asset>();

/** The asset named `file`, or null when it is not one of ours. */
export function docsAsset(file: string): Asset | null {
  const cached = cache.get(file);
  if (cached) return cached;
  if (!Object.hasOwn(FILES, file)) return null;
  const body = FILES[file]!();
  const type = TYPES[file.slice(file.lastIndexOf('.') + 1)]!;
  let gz: Buffer | null | undefined;
  const asset: Asset = {
    type,
    body,
    etag: etagOf(body.toString('latin1')),
    gzip: () => {
      if (gz === undefined) gz = type === 'image/png' ? null : gzipSync(body);
      return gz;
    },
  };
  cache.set(file, asset);
  return asset;
}

/** The versioned URL of an asset: a new Swagger UI (or a new init script) is a new URL, so old copies can be cached for good. */
export function assetUrl(file: string): string {
  const asset = docsAsset(file);
  return `/docs/assets/${file}?v=${SWAGGER_UI_VERSION}-${asset ? asset.etag.slice(1, 9) : '0'}`;
}
