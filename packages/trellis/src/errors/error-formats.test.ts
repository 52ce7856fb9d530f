import { htmlErrorFormat, problemJsonErrorFormat } from './default-error-formats.ts';
import { errorFormatContract } from './error-format.contract.ts';
import { jsonldErrorFormat } from '../formats/jsonld/jsonld-error-format.ts';
import { jsonapiErrorFormat } from '../formats/jsonapi/jsonapi-error-format.ts';
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { HttpError } from '../kernel/http-error.ts';
import { errorView } from './error-view.ts';
const jsonDetail = (body: string) => String((JSON.parse(body) as { detail: string }).detail);
// In HTML the message appears escaped; unescape the five entities html`` produces to compare.
const htmlText = (body: string) =>
  body.replace(/&lt;/g, '<').replace(/&gt;/g, '>').replace(/&quot;/g, '"').replace(/&#39;/g, "'").replace(/&#96;/g, '`').replace(/&amp;/g, '&');

errorFormatContract(problemJsonErrorFormat, jsonDetail);
errorFormatContract(jsonldErrorFormat, jsonDetail);
errorFormatContract(htmlErrorFormat, htmlText);
// JSON:API: the public message is in `meta.message` in debug and in the error object's detail always.
errorFormatContract(jsonapiErrorFormat, (body: string) => String((JSON.parse(body) as { errors: { detail: string }[] }).errors[0]!.detail));


test('the HTML page escapes request-controlled text everywhere it appears', () => {
  const evil = '<script>alert(1)</script>';
  const view = errorView(HttpError.of('route_not_found', { method: 'GET', path: `/${evil}`, referer: evil }), {
    debug: true,
    logs: [{ time: 0, level: 'info', channel: evil, message: evil, context: { evil } }],
  });
  const body = htmlErrorFormat.render(view, 'text/html', {} as never);
  assert.equal(body.includes('<script>'), false);
  assert.ok(body.includes('&lt;script&gt;alert(1)&lt;/script&gt;'));
});
