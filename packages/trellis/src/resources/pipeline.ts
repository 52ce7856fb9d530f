import { MAX_FILTER_VALUES } from './filter.ts';
import { readJsonBody } from '../kernel/body-parsers.ts';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { invalidBody, type Format, type Representation } from '../formats/format.ts';
import { MERGE_PATCH_MEDIA_TYPE } from '../formats/merge-patch.ts';
import { addVary } from '../http/vary.ts';
import { HttpError } from '../kernel/http-error.ts';
import { channels, publish } from '../observe/channels.ts';
import { checkAccess } from '../security/check-access.ts';
import type { Database } from '../data/database.ts';
import { etagOf, ifMatchPasses, noneMatch } from './conditional.ts';
import { denormalize, validationFailed } from './denormalize.ts';
import { enforceEmbeddedAccess } from './embedded-access.ts';
import { embedTarget, MAX_EMBED_DEPTH } from './embed-paths.ts';
import { invalidFilter } from './filters/invalid-filter.ts';
import { knownParameter, knownQuery } from './known-query.ts';
import { FormatNegotiator, splitExtension } from './format-negotiator.ts';
import { InputValidator } from './input-validator.ts';
import { apiDocumentationLink, paginationLinks } from './link-header.ts';
import type { Operation } from './operation.ts';
import { pageLinks, resolvePagination } from './pagination.ts';
import { jsonApiPageNames, jsonApiQuery, jsonApiSearch } from '../formats/jsonapi/jsonapi-query.ts';
import { fieldsetSearch } from '../formats/jsonapi/fieldset-search.ts';
import { JSONAPI_MEDIA_TYPE, jsonApiContentTypeRefusal } from '../formats/jsonapi/jsonapi-media-type.ts';
import type { ResourceRegistry } from './resource-registry.ts';
import { isPage, type Item, type OperationContext, type Page, type PaginationState, type QueryParams } from './state-provider.ts';

const NO_PAGINATION: PaginationState = { enabled: false, page: 1, itemsPerPage: 0, partial: false };
const NO_EMBED: ReadonlySet<string> = new Set();

/** Names by provider or processor: they never change, and every profiled request asks. */
const names = new WeakMap<object, string>();

/** A provider's or processor's name for the profiler: its class, or its function's name. */
function nameOf(part: object): string {
  let name = names.get(part);
  if (name === undefined) names.set(part, (name = nameNow(part)));
  return name;
}

function nameNow(part: object): string {
  const ctor = (part as { constructor?: { name?: string } }).constructor?.name;
  if (ctor && ctor !== 'Object') return ctor;
  const fn = (part as { provide?: { name?: string }; process?: { name?: string } }).provide ?? (part as { process?: { name?: string } }).process;
  return fn?.name || '(function)';
}

/**
 * Times the stages of one request: each published on `trellis:resource:stage` when someone
 * listens there, and all of them at once on `trellis:resource:stages` when the run ends (the
 * profiler's channel: one event per request, not nine).
 */
class StageClock {
  readonly #request: FastifyRequest;
  readonly #op: Operation;
  readonly #each = channels.resourceStage.hasSubscribers;
  readonly #batch: { names: string[]; startUs: number[]; durationUs: number[]; outcomes: ('ok' | 'error' | 'skipped')[]; detail: Record<string, unknown> } | null = channels.resourceStages.hasSubscribers
    ? { names: [], startUs: [], durationUs: [], outcomes: [], detail: {} }
    : null;
  readonly observed = this.#each || this.#batch !== null;
  stage = 'negotiate';
  #t0: number;

  constructor(request: FastifyRequest, op: Operation) {
    this.#request = request;
    this.#op = op;
    this.#t0 = this.observed ? performance.now() : 0;
  }

  /** Ends the current stage with `outcome` and starts `next`; `done` (or an error) ends the run. */
  next(next: string, outcome: 'ok' | 'error' | 'skipped' = 'ok', detail?: Record<string, unknown>): void {
    if (this.observed) {
      const now = performance.now();
      const { stage } = this;
      const durationMs = now - this.#t0;
      if (this.#each) publish('resourceStage', () => ({ request: this.#request, resource: this.#op.resource.name, operation: this.#op.name, stage, durationMs, outcome, ...(detail ? { detail } : {}) }));
      const batch = this.#batch;
      if (batch) {
        // Whole microseconds rounded once per instant, so each stage starts where the last ended
        // (the profiler sends the first start and the durations: api-record.ts).
        const startUs = Math.round(this.#t0 * 1000);
        batch.names.push(stage);
        batch.startUs.push(startUs);
        batch.durationUs.push(Math.round(now * 1000) - startUs);
        batch.outcomes.push(outcome);
        if (detail) Object.assign(batch.detail, detail);
        // Written out, not spread: a spread is a generic copy, on every profiled request.
        if (next === 'done' || outcome === 'error') {
          const { names, startUs, durationUs, outcomes, detail: merged } = batch;
          channels.resourceStages.publish({ request: this.#request, resource: this.#op.resource.name, operation: this.#op.name, names, startUs, durationUs, outcomes, detail: merged });
        }
      }
      this.#t0 = now;
    }
    this.stage = next;
  }
}

/**
 * A merge patch read as the default format reads a body, once it is known to be an object: RFC
 * 7396 §2, a patch that is not an object replaces the whole target, which a resource's fields
 * cannot be. Refused in the patch's own words, not the default format's ("a JSON-LD object").
 */
function mergePatchDecoder(format: Format): Format {
  return {
    ...format,
    decode(body, ctx) {
      if (typeof body !== 'object' || body === null || Array.isArray(body)) throw invalidBody('a JSON merge patch (RFC 7396): an object of the fields to change');
      return format.decode(body, ctx);
    },
  };
}

/**
 * RFC 9110 §12.5.5: the representation depends on Accept. By now Vary is usually unset or CORS's
 * `Origin`; anything else goes through addVary's merge.
 */
function varyOnAccept(reply: FastifyReply): void {
  const current = reply.getHeader('vary');
  if (current === undefined) reply.header('vary', 'Accept');
  else if (current === 'Origin') reply.header('vary', 'Origin, Accept');
  else addVary(reply, 'Accept');
}

function mediaTypeOf(request: FastifyRequest): string {
  const raw = request.headers['content-type'];
  if (raw === undefined) return '';
  const semi = raw.indexOf(';');
  return (semi < 0 ? raw : raw.slice(0, semi)).trim().toLowerCase();
}

/** JSON:API `fields[Type]=a,b` as type → fields, or undefined when none is given. */
function sparseFieldsets(query: QueryParams): ReadonlyMap<string, ReadonlySet<string>> | undefined {
  let out: Map<string, Set<string>> | undefined;
  for (const [key, value] of Object.entries(query)) {
    const m = /^fields\[([^\]]+)\]$/.exec(key);
    if (!m || value === undefined) continue;
    out ??= new Map();
    out.set(m[1]!, new Set((Array.isArray(value) ? value.join(',') : value).split(',').map((f) => f.trim()).filter((f) => f !== '')));
  }
  return out;
}

/**
 * The relation paths to embed (`author`, `book.author`). A path that leads to no readable relation
 * is a 400, as JSON:API's `include` is (a typo used to be ignored, and its bytes echoed into every
 * pagination link: 15,000 commas made a 180 kB `Link` header). Empty names (`embed=author,`) are
 * skipped, but count toward the bound on one parameter's values.
 */
function parseEmbed(op: Operation, registry: ResourceRegistry, query: QueryParams): ReadonlySet<string> {
  const raw = query.embed;
  if (raw === undefined) return NO_EMBED;
  const names = (Array.isArray(raw) ? raw : [raw]).flatMap((v) => v.split(','));
  if (names.length > MAX_FILTER_VALUES) throw HttpError.of('too_many_filter_values', { parameter: 'embed', max: MAX_FILTER_VALUES, count: names.length });
  const paths = new Set<string>();
  for (const name of names.map((s) => s.trim())) {
    if (name === '') continue;
    if (embedTarget(registry, op.resource, name) === null) throw invalidFilter('embed', name, `expected relation paths of the resource, up to ${MAX_EMBED_DEPTH} relations deep`);
    paths.add(name);
  }
  return paths.size === 0 ? NO_EMBED : paths;
}

/**
 * Runs one operation through the stages of kernel/lifecycle.md: negotiate, provide, security,
 * deserialize, post-denormalize, validate, process, serialize. Built once per operation at
 * startup (validators compiled, formats resolved); `handle` is the route handler.
 */
export class OperationPipeline {
  readonly operation: Operation;
  readonly #registry: ResourceRegistry;
  readonly #db: Database;
  readonly #negotiator: FormatNegotiator;
  readonly #validator: InputValidator | null;
  readonly #decoders: ReadonlyMap<string, Format>;
  readonly #supportedInput: string;

  constructor(operation: Operation, deps: { registry: ResourceRegistry; db: Database; negotiator: FormatNegotiator }) {
    this.operation = operation;
    this.#registry = deps.registry;
    this.#db = deps.db;
    this.#negotiator = deps.negotiator;
    this.#validator = operation.deserialize ? new InputValidator(operation.resource.inputSchema) : null;
    const decoders = new Map<string, Format>();
    for (const mediaType of operation.inputMediaTypes) {
      // Merge patches are plain JSON documents; JSON-LD keys in them are ignored like in JSON-LD bodies.
      const own = deps.negotiator.formats.find((f) => f.mediaTypes.includes(mediaType));
      const fallback = deps.negotiator.formats[0]!;
      decoders.set(mediaType, own ?? (mediaType === MERGE_PATCH_MEDIA_TYPE ? mergePatchDecoder(fallback) : fallback));
    }
    this.#decoders = decoders;
    this.#supportedInput = operation.inputMediaTypes.map((m) => `"${m}"`).join(', ');
  }

  async handle(request: FastifyRequest, reply: FastifyReply): Promise<FastifyReply> {
    const op = this.operation;
    const clock = new StageClock(request, op);
    try {
      const params = request.params as Record<string, string>;
      let extension = params.ext ?? null;
      let routeParams = params;
      if (extension === null && op.kind === 'item' && params.id !== undefined) {
        const [id, ext] = splitExtension(params.id);
        if (ext !== null) {
          extension = ext;
          routeParams = { ...params, id };
        }
      }
      const { format, contentType } = this.#negotiator.choose(request, extension);
      varyOnAccept(reply);
      clock.next('provide', 'ok', clock.observed ? { format: format.name, provider: nameOf(op.provider), processor: nameOf(op.processor) } : undefined);

      // JSON:API names its sort, page and filter parameters its own way (jsonapi-query.ts).
      const jsonapi = format.name === 'jsonapi';
      const query = jsonapi
        ? jsonApiQuery(
            request.query as QueryParams,
            (parameter) => knownParameter(op.resource, parameter),
            (path) => embedTarget(this.#registry, op.resource, path) !== null,
          )
        : (request.query as QueryParams);
      const fields = jsonapi ? sparseFieldsets(request.query as QueryParams) : undefined;
      checkQuerySize(query);
      const collection = op.kind === 'collection' && op.method === 'GET';
      const ctx: OperationContext = {
        request,
        db: this.#db,
        registry: this.#registry,
        params: routeParams,
        query,
        pagination: collection ? resolvePagination(op.resource, query, jsonapi ? jsonApiPageNames(request.query as QueryParams) : undefined) : NO_PAGINATION,
        embed: parseEmbed(op, this.#registry, query),
        previousObject: null,
      };
      let object: Item | null = null;
      let page: Page | null = null;
      if (op.read) {
        const state = await op.provider.provide(op, ctx);
        if (isPage(state)) page = state;
        else object = state as Item | null;
        if (op.kind === 'item' && object === null) throw HttpError.of('item_not_found', { iri: `${op.resource.path}/${routeParams.id}` });
        clock.next('security');
      } else clock.next('security', 'skipped');

      if (op.security !== null) {
        await checkAccess(request, { rule: op.security, message: op.securityMessage, stage: 'security', object, previousObject: null });
        clock.next('deserialize');
      } else clock.next('deserialize', 'skipped');

      let data: Item | null = object;
      let previousObject: Item | null = null;
      if (op.deserialize) {
        // Relations are immutable Refs, so a shallow copy is an unmodified deep copy of the loaded object.
        previousObject = object === null ? null : { ...object };
        // The body is read only now, after routing, the firewall and the operation's `security`
        // (lifecycle.md): a request refused before never has it read (kernel/body-parsers.ts).
        const mediaType = mediaTypeOf(request);
        // JSON:API 1.1, Content Negotiation: its media type with a parameter but ext/profile is a 415.
        if (mediaType === JSONAPI_MEDIA_TYPE && this.#decoders.has(mediaType)) {
          const refusal = jsonApiContentTypeRefusal(request.headers['content-type']);
          if (refusal !== null) throw refusal;
        }
        const decoder = this.#decoders.get(mediaType);
        if (decoder === undefined) throw HttpError.of('unsupported_media_type', { contentType: request.headers['content-type'] ?? '', supported: this.#supportedInput });
        if (isReadable(request.body)) request.body = await readJsonBody(request, request.body);
        const input = decoder.decode(request.body, { resource: op.resource, registry: this.#registry, ...(op.kind === 'item' && routeParams.id !== undefined ? { id: routeParams.id } : {}) });
        data = await denormalize(input, op, this.#validator!, { ...ctx, previousObject });
        clock.next('post_denormalize');
        if (op.securityPostDenormalize !== null) {
          await checkAccess(request, { rule: op.securityPostDenormalize, message: op.securityPostDenormalizeMessage, stage: 'post_denormalize', object: data, previousObject });
          clock.next('validate');
        } else clock.next('validate', 'skipped');
        const rules = op.validate ? op.resource.validate : null;
        if (rules !== null) {
          const violations = await rules(data, { ...ctx, previousObject });
          if (violations.length > 0) {
            throw validationFailed(violations, op);
          }
          clock.next('process');
        } else clock.next('process', 'skipped');
      } else {
        clock.next('post_denormalize', 'skipped');
        clock.next('validate', 'skipped');
        clock.next('process', 'skipped');
      }

      if (op.write) {
        if (object !== null) {
          let etags: string[] | null = null;
          const current = () => (etags ??= this.#currentEtags(object!, ctx));
          const iri = `${op.resource.path}/${object.id}`;
          // RFC 9110 §13.2.2, in its order: a stale If-Match is a lost update (§13.1.1), and an
          // If-None-Match that matches (`*`: the item exists) refuses any method but GET and HEAD
          // (§13.1.2); both before writing.
          if (!ifMatchPasses(request.headers['if-match'], current)) throw HttpError.of('precondition_failed', { iri });
          const noneMatchHeader = request.headers['if-none-match'];
          if (noneMatchHeader !== undefined && !current().every((etag) => noneMatch(noneMatchHeader, etag))) throw HttpError.of('precondition_none_match_failed', { iri });
        }
        const result = await op.processor.process(data ?? {}, op, { ...ctx, previousObject });
        if (op.method !== 'DELETE') data = result;
        clock.next('serialize');
      } else clock.next('serialize', 'skipped');

      if (!op.serialize || (op.method === 'DELETE' && op.write)) {
        clock.next('done', 'skipped');
        return reply.code(op.status === 200 ? 204 : op.status).send();
      }
      const embedded = ctx.embed.size > 0;
      if (embedded) await enforceEmbeddedAccess(request, op.resource, page !== null ? page.items : data === null ? [] : [data as Item], ctx.embed);
      let body: string;
      if (page !== null) {
        let search = knownQuery(op.resource, query === request.query ? searchOf(request.url) : searchFrom(query));
        // JSON:API's links say its own names (sort, include, page[size], page[number]).
        if (jsonapi) search = jsonApiSearch(search);
        // JSON:API: the sparse fieldsets hold on every page the links lead to.
        if (fields) search = [search, fieldsetSearch(fields, (type) => this.#registry.get(type) ?? this.#registry.resources.find((r) => r.path === `/${type}`))].filter((s) => s !== '').join('&');
        // The pages of a collection asked for by extension (`/books.json?page=2`) keep it: a client
        // following `next` stays in the format it chose (API Platform's views do the same).
        const pagesPath = extension === null ? op.resource.path : `${op.resource.path}.${extension}`;
        const links = ctx.pagination.enabled ? pageLinks(pagesPath, search, ctx.pagination, page.totalItems, page.items.length, jsonapi ? 'page[number]' : 'page') : null;
        const value: Representation = { kind: 'collection', items: page.items, totalItems: page.totalItems, links, itemsPerPage: ctx.pagination.itemsPerPage };
        body = format.encode(value, { resource: op.resource, embedded, ...(fields ? { fields } : {}) });
        if (links !== null && format.name === 'json') reply.header('link', `${apiDocumentationLink(request)}, ${paginationLinks(request, links)}`);
      } else {
        body = format.encode({ kind: 'item', item: data as Item }, { resource: op.resource, embedded, ...(fields ? { fields } : {}) });
      }
      const etag = etagOf(body);
      reply.header('etag', etag);
      clock.next('done');
      if (op.method === 'GET' && page === null && data !== null && request.headers['if-match'] !== undefined) {
        // RFC 9110 §13.1.1: If-Match holds for every method; false on a read, 412 too.
        if (!ifMatchPasses(request.headers['if-match'], () => [etag, ...this.#currentEtags(data as Item, ctx)])) throw HttpError.of('precondition_failed', { iri: `${op.resource.path}/${(data as Item).id}` });
      }
      if (op.method === 'GET' && !noneMatch(request.headers['if-none-match'], etag)) return reply.code(304).send();
      if (op.method === 'POST' && op.status === 201 && data) reply.header('location', `${op.resource.path}/${(data as Item).id}`);
      // A Buffer is sent as typed: Fastify adds `charset` to a JSON string's type, which JSON:API forbids.
      return reply.code(op.status).type(contentType).send(contentType === JSONAPI_MEDIA_TYPE ? Buffer.from(body) : body);
    } catch (error) {
      clock.next(clock.stage, 'error');
      throw error;
    }
  }

  /** The ETags the current object has in every format: If-Match holds if the client saw any of them. */
  #currentEtags(object: Item, ctx: OperationContext): string[] {
    return this.#negotiator.formats.map((f) => etagOf(f.encode({ kind: 'item', item: object }, { resource: this.operation.resource, embedded: ctx.embed.size > 0 })));
  }
}

/** A query object back as a query string (a JSON:API query once translated: its links name the same page). */
function searchFrom(query: QueryParams): string {
  const search = new URLSearchParams();
  for (const [key, value] of Object.entries(query)) {
    if (value === undefined) continue;
    for (const v of Array.isArray(value) ? value : [value]) search.append(key, v);
  }
  return search.toString();
}

function searchOf(url: string): string {
  const q = url.indexOf('?');
  return q < 0 ? '' : url.slice(q + 1);
}

/**
 * Values a query string may carry in all (filters, order, pagination, embed), and one parameter
 * (MAX_FILTER_VALUES, see filter.ts). Filters are ANDed in SQL, so their total bounds the
 * statement's size as MAX_FILTER_VALUES bounds one OR.
 */
export const MAX_QUERY_VALUES = 300;

function checkQuerySize(query: QueryParams): void {
  let count = 0;
  for (const key in query) {
    const v = query[key];
    if (Array.isArray(v) && v.length > MAX_FILTER_VALUES) {
      throw HttpError.of('too_many_filter_values', { parameter: key.replace(/\[\]$/, ''), max: MAX_FILTER_VALUES, count: v.length });
    }
    count += Array.isArray(v) ? v.length : 1;
  }
  if (count > MAX_QUERY_VALUES) throw HttpError.of('too_many_query_values', { max: MAX_QUERY_VALUES, count });
}

/** The unread body stream a deferred route is handed (kernel/body-parsers.ts). */
function isReadable(body: unknown): body is import('node:stream').Readable {
  return body !== null && typeof body === 'object' && typeof (body as { pipe?: unknown }).pipe === 'function' && typeof (body as { on?: unknown }).on === 'function';
}
