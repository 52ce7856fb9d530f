// The access matrix: for every read of the bookshop's data (each GET operation, item and
// collection, every relation embedded, every output format, conditional requests, and the body a
// write answers with) × {anonymous, alice, bob, admin}, what the response carries is what the
// rules allow that user. Generated from the resource declarations: a new resource, operation or
// relation is covered without a line here. The oracle for an embedded relation is black-box: the
// status of a direct GET of that item by the same user.
import { describe, test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import type { FastifyInstance } from 'fastify';
import { testConfig } from '../../src/testing/test-config.ts';
import type { ResourceDefinition } from '../../src/resources/define-resource.ts';
import { bookshopApp } from '../docs/bookshop-app.ts';
import { resources } from '../../../../examples/bookshop/src/resources/index.ts';
import { embedPaths } from '../../src/resources/embed-paths.ts';
import { ResourceRegistry } from '../../src/resources/resource-registry.ts';

/** Who asks: a bearer token from POST /auth (the same in debug and production), or nobody. */
const ACCOUNTS: Record<string, [string, string] | null> = {
  anonymous: null,
  alice: ['alice@bookshop.test', 'alice-password'],
  bob: ['bob@bookshop.test', 'bob-password'],
  admin: ['admin@bookshop.test', 'admin-password'],
};
const USERS: Record<string, string | null> = Object.fromEntries(Object.keys(ACCOUNTS).map((u) => [u, null]));
const FORMATS = { jsonld: 'application/ld+json', json: 'application/json', hal: 'application/hal+json', jsonapi: 'application/vnd.api+json' } as const;

const defs = resources as unknown as ResourceDefinition[];
const registry = new ResourceRegistry(defs);
const relationsOf = (r: ResourceDefinition) => [...r.property.values()].filter((p) => p.relation).map((p) => p.name);
/** Sample ids per resource: a few, spread so that they have different owners. */
const SAMPLE_IDS = [1, 2, 3, 7, 12];

interface Res {
  status: number;
  body: string;
  etag: string | undefined;
}

function matrix(name: string, configEnv: Record<string, string>) {
  describe(`access matrix (${name})`, () => {
    let app: FastifyInstance;
    const oracle = new Map<string, Promise<number>>();
    const get = async (url: string, user: string, accept: string = FORMATS.json, headers: Record<string, string> = {}): Promise<Res> => {
      const auth = USERS[user];
      const res = await app.inject({ method: 'GET', url, headers: { accept, ...(auth ? { authorization: auth } : {}), ...headers } });
      return { status: res.statusCode, body: res.body, etag: res.headers.etag as string | undefined };
    };
    /** Whether `user` may read the item at `iri` directly: the decision every other path must repeat. */
    const mayRead = async (iri: string, user: string): Promise<boolean> => {
      const key = `${user} ${iri}`;
      if (!oracle.has(key)) oracle.set(key, get(iri, user).then((r) => r.status));
      const status = await oracle.get(key)!;
      assert.ok([200, 401, 403, 404, 405].includes(status), `direct GET ${iri} as ${user}: ${status}`);
      return status === 200;
    };
    /** The strings only this item's own representation holds (what a leak of it would show). */
    const secretsOf = async (iri: string): Promise<string[]> => {
      const res = await get(iri, 'admin');
      if (res.status !== 200) return [];
      return Object.entries(JSON.parse(res.body) as Record<string, unknown>)
        .filter(([k, v]) => k !== 'id' && typeof v === 'string' && v.length >= 6 && !v.startsWith('/'))
        .map(([, v]) => JSON.stringify(v).slice(1, -1));
    };

    before(async () => {
      app = await bookshopApp(testConfig({ PROFILER: '0', ...configEnv }));
      for (const [user, account] of Object.entries(ACCOUNTS)) {
        if (account === null) continue;
        const res = await app.inject({ method: 'POST', url: '/auth', payload: { email: account[0], password: account[1] } });
        assert.equal(res.statusCode, 200, `login of ${user}`);
        USERS[user] = `Bearer ${(res.json() as { token: string }).token}`;
      }
    });
    after(() => app.close());

    /** Checks one embedding response: each related item allowed is embedded, each denied leaks nothing. */
    async function checkEmbedding(resource: ResourceDefinition, user: string, url: string, plain: Res, embedded: Res, items: Record<string, unknown>[], relation: string, format: string, mustEmbed = true) {
      const targetPath = defs.find((d) => d.name === resource.property.get(relation)!.relation)!.path;
      for (const item of items) {
        const value = item[relation];
        if (value === null || value === undefined) continue;
        // Plain JSON: a link is the IRI string, an embedded relation an object with the target's fields.
        const targetIri = typeof value === 'string' ? value : `${targetPath}/${(value as { id: number }).id}`;
        const allowed = await mayRead(targetIri, user);
        if (format === 'json' && (mustEmbed || !allowed)) assert.equal(typeof value === 'object', allowed, `${user} GET ${url}: ${relation} ${targetIri} embedded=${typeof value === 'object'} but direct read ${allowed ? 'allowed' : 'denied'}`);
        if (!allowed) for (const secret of await secretsOf(targetIri)) if (!plain.body.includes(secret)) assert.ok(!embedded.body.includes(secret), `${user} GET ${url} (${format}) leaks ${targetIri}: "${secret}"`);
      }
    }

    for (const resource of defs) {
      const itemRead = resource.operations.find((o) => o.method === 'GET' && o.kind === 'item');
      const collectionRead = resource.operations.find((o) => o.method === 'GET' && o.kind === 'collection');
      const relations = relationsOf(resource);
      const embeds = relations.length > 1 ? [...relations.map((r) => [r]), relations] : relations.map((r) => [r]);

      for (const user of Object.keys(USERS)) {
        if (itemRead) {
          test(`${resource.name} item × ${user}: direct, every embed, every format`, async () => {
            for (const id of SAMPLE_IDS) {
              const url = `${resource.path}/${id}`;
              const direct = await get(url, user);
              if (direct.status !== 200) {
                // Denied or absent: no format and no embed shows any of it.
                for (const accept of Object.values(FORMATS)) for (const embed of embeds) {
                  const res = await get(`${url}?embed=${embed.join(',')}`, user, accept);
                  assert.equal(res.status, direct.status, `${user} GET ${url}?embed=${embed} as ${accept}`);
                  for (const secret of await secretsOf(url)) assert.ok(!res.body.includes(secret), `${user} ${url} leaks "${secret}"`);
                }
                continue;
              }
              for (const embed of embeds) {
                for (const [format, accept] of Object.entries(FORMATS)) {
                  const plain = await get(url, user, accept);
                  const res = await get(`${url}?embed=${embed.join(',')}`, user, accept);
                  assert.equal(res.status, 200);
                  const item = format === 'json' ? (JSON.parse(res.body) as Record<string, unknown>) : (JSON.parse(plain.body) as Record<string, unknown>);
                  for (const relation of embed) if (format === 'json' || relation in item) await checkEmbedding(resource, user, `${url}?embed=${embed}`, plain, res, [format === 'json' ? item : (JSON.parse((await get(`${url}?embed=${embed.join(',')}`, user)).body) as Record<string, unknown>)], relation, format);
                }
              }
            }
          });

          test(`${resource.name} item × ${user}: another user's ETag is not a 304 unless the bytes are the same`, async () => {
            for (const id of SAMPLE_IDS) for (const embed of [[], ...embeds]) {
              const url = `${resource.path}/${id}${embed.length ? `?embed=${embed.join(',')}` : ''}`;
              const mine = await get(url, user);
              for (const other of Object.keys(USERS)) {
                const theirs = await get(url, other);
                if (theirs.etag === undefined || mine.status !== 200) continue;
                const conditional = await get(url, user, FORMATS.json, { 'if-none-match': theirs.etag });
                if (conditional.status === 304) assert.equal(mine.body, theirs.body, `${user} got 304 for ${other}'s ETag on ${url} with different bytes`);
                else assert.equal(conditional.body, mine.body);
              }
            }
          });
        }

        if (collectionRead) {
          test(`${resource.name} collection × ${user}: every embed, every format`, async () => {
            const url = resource.path;
            const direct = await get(url, user);
            if (direct.status !== 200) {
              for (const embed of embeds) assert.equal((await get(`${url}?embed=${embed.join(',')}`, user)).status, direct.status);
              return;
            }
            for (const embed of embeds) {
              const withEmbed = `${url}?embed=${embed.join(',')}&itemsPerPage=30`;
              const json = await get(withEmbed, user);
              const items = JSON.parse(json.body) as Record<string, unknown>[];
              assert.ok(items.length > 0);
              for (const [format, accept] of Object.entries(FORMATS)) {
                const plain = await get(`${url}?itemsPerPage=30`, user, accept);
                const res = format === 'json' ? json : await get(withEmbed, user, accept);
                for (const relation of embed) await checkEmbedding(resource, user, withEmbed, plain, res, items, relation, format);
              }
            }
          });
        }
      }

      // JSON:API include, every relationship path up to the depth allowed (book.author included):
      // every resource object in `included` is one the user may GET directly, and every one of
      // the first level they may GET is there (full linkage, JSON:API 1.1 Compound Documents).
      const includePaths = embedPaths(registry, resource);
      const checkIncluded = async (url: string, user: string, direct: number) => {
        const res = await get(url, user, FORMATS.jsonapi);
        assert.equal(res.status, direct, `${user} GET ${url}`);
        if (res.status !== 200) {
          assert.doesNotMatch(res.body, /"included"/);
          return;
        }
        const doc = JSON.parse(res.body) as { data: any; included?: { type: string; id: string }[] };
        const primary = (Array.isArray(doc.data) ? doc.data : [doc.data]) as { type: string; id: string; relationships?: Record<string, { data: { type: string; id: string } | null }> }[];
        const iriOf = (r: { type: string; id: string }) => `${defs.find((d) => d.name === r.type)!.path}/${r.id}`;
        const shown = new Set([...primary, ...(doc.included ?? [])].map((r) => `${r.type}/${r.id}`));
        for (const r of doc.included ?? []) assert.ok(await mayRead(iriOf(r), user), `${user} GET ${url}: ${iriOf(r)} is included but a direct GET refuses it`);
        const first = new URL(url, 'http://x').searchParams.get('include')!.split('.')[0]!;
        for (const item of primary) {
          const linkage = item.relationships?.[first]?.data;
          if (!linkage) continue;
          const allowed = await mayRead(iriOf(linkage), user);
          assert.equal(shown.has(`${linkage.type}/${linkage.id}`), allowed, `${user} GET ${url}: ${iriOf(linkage)} included=${!allowed} but direct read ${allowed ? 'allowed' : 'denied'}`);
          if (!allowed) for (const secret of await secretsOf(iriOf(linkage))) assert.ok(!res.body.includes(secret), `${user} GET ${url} leaks ${iriOf(linkage)}: "${secret}"`);
        }
      };
      for (const user of Object.keys(USERS)) {
        if (includePaths.length === 0) continue;
        if (collectionRead) {
          test(`${resource.name} collection ?include=${includePaths.join('|')} × ${user}: included holds what the user may read, all of it`, async () => {
            const direct = (await get(resource.path, user)).status;
            for (const path of includePaths) await checkIncluded(`${resource.path}?include=${path}&page[size]=30`, user, direct);
            await checkIncluded(`${resource.path}?include=${includePaths.join(',')}&page[size]=30`, user, direct);
          });
        }
        if (itemRead) {
          test(`${resource.name} item ?include=… × ${user}: included holds what the user may read, all of it`, async () => {
            for (const id of SAMPLE_IDS) {
              const direct = (await get(`${resource.path}/${id}`, user)).status;
              for (const path of includePaths) await checkIncluded(`${resource.path}/${id}?include=${path}`, user, direct);
            }
          });
        }
      }

      const patch = resource.operations.find((o) => o.method === 'PATCH');
      if (patch && relations.length > 0) {
        // A write's answer need not embed (it is the written object), but must never embed what is denied.
        test(`${resource.name} PATCH {} ?embed=… × every user: the write's answer embeds nothing a user may not read`, async () => {
          for (const user of Object.keys(USERS)) for (const id of SAMPLE_IDS) {
            const url = `${resource.path}/${id}?embed=${relations.join(',')}`;
            const auth = USERS[user];
            const res = await app.inject({ method: 'PATCH', url, payload: '{}', headers: { 'content-type': 'application/merge-patch+json', accept: FORMATS.json, ...(auth ? { authorization: auth } : {}) } });
            if (res.statusCode !== 200) {
              assert.ok([401, 403, 404].includes(res.statusCode), `${user} PATCH ${url}: ${res.statusCode}`);
              for (const secret of await secretsOf(`${resource.path}/${id}`)) assert.ok(!res.body.includes(secret), `${user} PATCH ${url} leaks "${secret}"`);
              continue;
            }
            const item = res.json() as Record<string, unknown>;
            for (const relation of relations) await checkEmbedding(resource, user, url, { status: 200, body: '', etag: undefined }, { status: 200, body: res.body, etag: undefined }, [item], relation, 'json', false);
          }
        });
      }
    }

    test('the reported leak: anonymous GET /reviews?embed=author shows no reviewer e-mail, in any format', async () => {
      for (const accept of Object.values(FORMATS)) {
        const res = await get('/reviews?embed=author', 'anonymous', accept);
        assert.equal(res.status, 200);
        assert.doesNotMatch(res.body, /@bookshop\.test/);
      }
      // Alice sees her own account embedded in her reviews, and bob's stays a link.
      const own = JSON.parse((await get('/reviews?embed=author&author=/users/2', 'alice')).body) as { author: unknown }[];
      assert.ok(own.length > 0);
      assert.deepEqual([...new Set(own.map((r) => (r.author as { email?: string }).email))], ['alice@bookshop.test']);
      const bobs = JSON.parse((await get('/reviews?embed=author&author=/users/3', 'alice')).body) as { author: unknown }[];
      assert.ok(bobs.length > 0);
      assert.deepEqual([...new Set(bobs.map((r) => r.author))], ['/users/3']);
    });
  });
}

matrix('debug', {});
matrix('production', { NODE_ENV: 'production', APP_DEBUG: '0' });
