import { createHash } from 'node:crypto';

/** Where the profiler serves it (copy-script-route.ts). */
export const COPY_SCRIPT_PATH = '/_profiler/copy.js';

/**
 * The profiler's only script: it shows each "Copy" button (`data-copy` names the element whose
 * text it copies) and copies on click. The pages work without it: the text stays selectable and
 * the buttons hidden. A file, not inline: the pages' CSP allows it by its hash (page-security-headers.ts).
 */
export const COPY_SCRIPT = `'use strict';
// Trellis profiler: "Copy" buttons. The page works without this file (the text is selectable).
for (const button of document.querySelectorAll('button[data-copy]')) {
  const target = document.getElementById(button.dataset.copy);
  if (!target) continue;
  const label = button.textContent;
  const done = (text) => {
    button.textContent = text;
    setTimeout(() => { button.textContent = label; }, 2000);
  };
  // Outside a secure context (https, localhost) there is no Clipboard API: the text is selected
  // and copied the older way.
  const fallback = () => {
    const range = document.createRange();
    range.selectNodeContents(target);
    const selection = window.getSelection();
    selection.removeAllRanges();
    selection.addRange(range);
    done(document.execCommand('copy') ? 'Copied' : 'Selected: press Ctrl+C');
  };
  button.addEventListener('click', () => {
    if (navigator.clipboard) navigator.clipboard.writeText(target.textContent).then(() => done('Copied'), fallback);
    else fallback();
  });
  button.hidden = false;
}
`;

/** Subresource Integrity metadata of the script (W3C SRI §3.1), which is also its CSP hash-source. */
export const COPY_SCRIPT_INTEGRITY = `sha256-${createHash('sha256').update(COPY_SCRIPT).digest('base64')}`;
