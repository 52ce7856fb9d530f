import type { FastifyRequest } from 'fastify';
import type { Format } from '../formats/format.ts';
import { negotiate } from '../http/negotiate.ts';
import { HttpError } from '../kernel/http-error.ts';
import { channels, publish } from '../observe/channels.ts';
import { JSONAPI_MEDIA_TYPE, jsonApiAcceptRefusal } from '../formats/jsonapi/jsonapi-media-type.ts';

export interface Negotiated {
  readonly format: Format;
  readonly mediaType: string;
  /** `mediaType; charset=utf-8`, the Content-Type of the response. */
  readonly contentType: string;
}

function negotiated(format: Format, mediaType: string): Negotiated {
  // JSON:API 1.1, Content Negotiation: its media type is sent with no parameter but ext and
  // profile (JSON is UTF-8 anyway, RFC 8259 §8.1).
  return { format, mediaType, contentType: mediaType === JSONAPI_MEDIA_TYPE ? mediaType : `${mediaType}; charset=utf-8` };
}

/** Clients send a handful of distinct Accept headers; remember each decision (bounded). */
const CACHE_SIZE = 256;

/**
 * Chooses the response format: a URL extension wins (`/books/1.json`), an unknown one is a 404;
 * otherwise proactive negotiation on Accept (RFC 9110 §12.5.1), 406 when nothing is acceptable
 * (§15.5.7).
 */
export class FormatNegotiator {
  readonly formats: readonly Format[];
  readonly mediaTypes: readonly string[];
  readonly #byExtension: ReadonlyMap<string, Negotiated>;
  readonly #byMediaType: ReadonlyMap<string, Format>;
  readonly #cache = new Map<string, Negotiated | null>();
  readonly #supported: string;
  readonly #jsonapi: boolean;

  constructor(formats: readonly Format[]) {
    this.formats = formats;
    this.mediaTypes = formats.flatMap((f) => f.mediaTypes);
    this.#byExtension = new Map(formats.map((f) => [f.extension, negotiated(f, f.mediaTypes[0]!)]));
    this.#byMediaType = new Map(formats.flatMap((f) => f.mediaTypes.map((m) => [m, f] as const)));
    this.#supported = this.mediaTypes.map((m) => `"${m}"`).join(', ');
    this.#jsonapi = this.#byMediaType.has(JSONAPI_MEDIA_TYPE);
  }

  choose(request: FastifyRequest, extension: string | null): Negotiated {
    let chosen: Negotiated | null;
    if (extension !== null) {
      chosen = this.#byExtension.get(extension) ?? null;
      if (chosen === null) throw HttpError.of('unknown_format_extension', { format: extension });
    } else {
      const accept = request.headers.accept ?? '';
      chosen = this.#cache.get(accept) ?? null;
      if (chosen === null && !this.#cache.has(accept)) {
        // Checked before a decision is cached, so a cached Accept passed it (a refused one never is).
        if (this.#jsonapi) {
          const refusal = jsonApiAcceptRefusal(accept);
          if (refusal !== null) throw refusal;
        }
        const mediaType = negotiate(accept, this.mediaTypes);
        chosen = mediaType === null ? null : negotiated(this.#byMediaType.get(mediaType)!, mediaType);
        if (this.#cache.size >= CACHE_SIZE) this.#cache.clear();
        this.#cache.set(accept, chosen);
      }
      if (chosen === null) throw HttpError.of('not_acceptable', { accept, supported: this.#supported });
    }
    if (channels.negotiate.hasSubscribers) {
      const result = chosen;
      publish('negotiate', () => ({ request, accept: request.headers.accept, format: result.format.name, mediaType: result.mediaType, extension }));
    }
    return chosen;
  }
}

/** Splits a trailing format extension off the last path value: `12.jsonld` → ["12", "jsonld"]. */
export function splitExtension(value: string): [string, string | null] {
  const dot = value.lastIndexOf('.');
  return dot < 0 ? [value, null] : [value.slice(0, dot), value.slice(dot + 1)];
}
