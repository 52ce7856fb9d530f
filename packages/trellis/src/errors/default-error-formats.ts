import type { ErrorFormat } from './error-format.ts';
import { ERROR_PAGE_HEADERS, htmlErrorPage } from './html-error-page.ts';
import { problemBody } from './problem-body.ts';

export const problemJsonErrorFormat: ErrorFormat = {
  name: 'problem+json',
  // A client that asked for plain JSON gets the same document labelled application/json.
  mediaTypes: ['application/problem+json', 'application/json'],
  render: (view) => JSON.stringify(problemBody(view)),
};

export const htmlErrorFormat: ErrorFormat = {
  name: 'html',
  mediaTypes: ['text/html'],
  headers: ERROR_PAGE_HEADERS,
  render: (view) => htmlErrorPage(view),
};
