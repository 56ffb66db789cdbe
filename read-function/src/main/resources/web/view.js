// The view page: reads /pastes/{code} as JSON and shows it as text, in numbered lines that take their colours
// from the highlighter; polls while it is being stored; offers Reveal for a read-once paste, Copy, Download,
// Raw, and Delete when this browser holds the paste's delete token. A large paste is the list of its files, each a
// link to its download.
import {
  TAKEN_DOWN_MESSAGE, deleteTokens, formatInstant, formatSize, goneKind, readError, retryAfterSeconds,
} from '/assets/api.js';
import { highlightedLines, selectedLines } from '/assets/lines.js';
import { MAX_PLAINTEXT_BYTES, base58Decode, decryptPaste } from '/assets/privatebin.js';

/**
 * Polling while the paste is IN_PROGRESS (or the API is briefly unavailable): never sooner than the API's
 * Retry-After, with our own delay growing 1.5x per answer up to 10 s, and giving up after 2 minutes (an upload
 * normally ends within about 30 s; the breaker can hold one for longer).
 */
const POLLING = { firstDelaySeconds: 1, factor: 1.5, maxDelaySeconds: 10, giveUpAfterSeconds: 120 };

const shortCode = codeFromAddress();
const pasteUrl = `/pastes/${encodeURIComponent(shortCode)}`;
const encrypted = encryptedLink();

const page = document.getElementById('page');
const message = document.getElementById('message');
const content = document.getElementById('content');
const details = document.getElementById('details');
const revealButton = document.getElementById('reveal');
const checkAgainButton = document.getElementById('check-again');
const deleteButton = document.getElementById('delete');
const confirmation = document.getElementById('delete-confirmation');
const rawLink = document.getElementById('raw');
const copyButton = document.getElementById('copy');
const downloadLink = document.getElementById('download');
const reportLink = document.getElementById('report-link');
const reportForm = document.getElementById('report-form');
const reportMessage = document.getElementById('report-message');
const passwordForm = document.getElementById('password-form');
const passwordInput = document.getElementById('paste-password');
const filesSection = document.getElementById('files-section');
const filesView = document.getElementById('files-view');

/** The short code in /p/{shortCode}, as typed: the API, not this page, says whether it is well formed. */
function codeFromAddress() {
  const raw = window.location.pathname.replace(/^\/p\//, '');
  try {
    return decodeURIComponent(raw);
  } catch {
    return raw; // a malformed %-escape: let the API refuse it
  }
}

/**
 * An encrypted paste's link (PrivateBin's format, /pb/?{code} redirected here with its fragment): the fragment is
 * the base58 key, '-' first when the paste burns after reading (only in the links this page and PrivateBin's own
 * write: the server says it for every link, loadEncryptedOnceAsked), then optionally '&L12' for the selected lines.
 * The key never leaves the page: fragments are not sent, and nothing here puts it in a request.
 */
function encryptedLink() {
  const match = /^#(-?)([1-9A-HJ-NP-Za-km-z]{40,50})(?:&(L.*))?$/.exec(window.location.hash);
  if (match === null || base58Decode(match[2])?.length !== 32) {
    return null;
  }
  return { burn: match[1] === '-', key: match[2], prefix: `#${match[1]}${match[2]}` };
}

/** The part of the fragment that names lines, as lines.js reads it: '#L12' (after the key on an encrypted paste). */
function linesHash() {
  if (encrypted === null) {
    return window.location.hash;
  }
  const at = window.location.hash.indexOf('&');
  return at < 0 ? '' : `#${window.location.hash.slice(at + 1)}`;
}

let polling = null; // { startedAt, nextDelaySeconds } while waiting for the paste
let pollTimer = null;

function say(state, text) {
  page.dataset.state = state;
  message.textContent = text;
}

/** A detail row that only some pastes have (a file name, a language): shown with its text, or hidden. */
function showDetail(id, text) {
  document.getElementById(id).textContent = text ?? '';
  document.getElementById(id).hidden = text === null;
  document.getElementById(`${id}-label`).hidden = text === null;
}

function showDetails(paste) {
  document.getElementById('size').textContent = formatSize(paste.sizeBytes);
  document.getElementById('created').textContent = paste.createdAt ? formatInstant(paste.createdAt) : '—';
  document.getElementById('expires').textContent = paste.expiresAt ? formatInstant(paste.expiresAt) : 'never';
  showDetail('file-name', paste.fileName ?? null);
  details.hidden = false;
}

let shown = null; // { content, downloadUrl } of the paste on the page
let highlighter = null; // the worker highlighting it, until it answers

/**
 * The paste as numbered lines of text nodes (lines.js never parses markup, so "<script>" is shown, not run); then
 * coloured when the highlighter's worker answers with its token tree, for the stored language or one detected.
 */
function showContent(paste) {
  shown = { content: paste.content };
  content.replaceChildren(highlightedLines(paste.content, null));
  content.dataset.digits = String(content.querySelectorAll('.line').length).length;
  content.hidden = false;
  showDetails(paste);
  showSelection(true);
  offerCopies(paste);
  highlight(paste);
}

/**
 * A large paste: its files, each with its size and a link to its read (/pastes/{code}?file=n), which the API answers
 * with a redirect to a short-lived S3 link that downloads it under its name. Nothing of the files is fetched here.
 */
function showFiles(paste) {
  showDetails(paste);
  filesView.replaceChildren(...paste.files.map((file, position) => {
    const item = document.createElement('li');
    item.dataset.position = String(position);
    const anchor = document.createElement('a');
    anchor.className = 'file-link';
    anchor.href = file.url;
    anchor.textContent = file.name;
    const size = document.createElement('span');
    size.className = 'file-size';
    size.textContent = ` ${formatSize(file.sizeBytes)}`;
    item.append(anchor, size);
    return item;
  }));
  filesSection.hidden = false;
}

/** Copy, and Download as the paste's file name (or its code): both from the text on the page, with no request. */
function offerCopies(paste) {
  shown.downloadUrl = URL.createObjectURL(new Blob([paste.content], { type: 'text/plain;charset=utf-8' }));
  downloadLink.href = shown.downloadUrl;
  downloadLink.download = paste.fileName ?? `${shortCode}.txt`;
  downloadLink.hidden = false;
  copyButton.hidden = false;
  rawLink.hidden = false;
}

/** Highlighting costs about a second per few hundred KiB: above this, a paste stays plain text. */
const HIGHLIGHT_MAX_CHARS = 512 * 1024;

/** The code box's data-highlighting: "pending" while the worker works, "done" once the lines are final. */
function highlightingDone() {
  content.dataset.highlighting = 'done';
}

function highlight(paste) {
  highlighter?.terminate();
  highlighter = null;
  content.dataset.highlighting = 'pending';
  if (paste.content.length > HIGHLIGHT_MAX_CHARS) {
    highlightingDone();
    showDetail('language', paste.language ? `${paste.language} (too large to highlight)` : 'plain text (too large to highlight)');
    return;
  }
  if (paste.language === 'plaintext') {
    showDetail('language', 'plain text');
    highlightingDone();
    return;
  }
  showDetail('language', paste.language ?? 'detecting…');
  const worker = new Worker('/assets/highlight-worker.js', { type: 'module' });
  highlighter = worker;
  worker.onmessage = ({ data }) => {
    worker.terminate();
    if (highlighter !== worker || shown?.content !== paste.content) {
      return; // another paste, or none, is on the page now
    }
    highlighter = null;
    showDetail('language', data.language ? `${data.language}${data.detected ? ' (detected)' : ''}` : 'plain text');
    if (data.tree) {
      content.replaceChildren(highlightedLines(paste.content, data.tree));
      content.dataset.language = data.language;
      showSelection(false);
    }
    highlightingDone();
  };
  worker.onerror = () => {
    worker.terminate();
    showDetail('language', paste.language ?? 'plain text');
    highlightingDone();
  };
  worker.postMessage({ text: paste.content, language: paste.language ?? null });
}

/** Marks the lines the address names (#L12, #L12-L20); on the first showing, scrolls them into view. */
function showSelection(scroll) {
  const selection = selectedLines(linesHash());
  for (const line of content.querySelectorAll('.line.selected')) {
    line.classList.remove('selected');
  }
  if (selection === null) {
    return;
  }
  const lines = content.querySelectorAll('.line');
  for (let number = selection.first; number <= Math.min(selection.last, lines.length); number += 1) {
    lines[number - 1].classList.add('selected');
  }
  if (scroll && selection.first <= lines.length) {
    lines[selection.first - 1].scrollIntoView({ block: 'center' });
  }
}

/** A click on a line number links to that line; with Shift, to the range from the line linked before. */
function selectFromClick(event) {
  const number = event.target.closest('a.ln')?.dataset.line;
  if (!number) {
    return;
  }
  event.preventDefault();
  const earlier = selectedLines(linesHash());
  let lines = `L${number}`;
  if (event.shiftKey && earlier !== null) {
    const [first, last] = [earlier.first, Number(number)].sort((a, b) => a - b);
    lines = first === last ? `L${first}` : `L${first}-L${last}`;
  }
  // replaceState: selecting lines is not a page to go back to, and it keeps the page from jumping; an encrypted
  // paste's key stays in front of the lines
  window.history.replaceState(null, '', encrypted === null ? `#${lines}` : `${encrypted.prefix}&${lines}`);
  showSelection(false);
}

async function copyContent() {
  try {
    await navigator.clipboard.writeText(shown.content);
    copyButton.textContent = 'Copied';
  } catch {
    copyButton.textContent = 'Copy failed: select the text';
  }
  window.setTimeout(() => {
    copyButton.textContent = 'Copy';
  }, 2000);
}

function clearPaste() {
  window.clearTimeout(pollTimer);
  polling = null;
  highlighter?.terminate();
  highlighter = null;
  if (shown?.downloadUrl) {
    URL.revokeObjectURL(shown.downloadUrl);
  }
  shown = null;
  content.textContent = '';
  content.hidden = true;
  filesView.replaceChildren();
  filesSection.hidden = true;
  details.hidden = true;
  rawLink.hidden = true;
  copyButton.hidden = true;
  downloadLink.hidden = true;
  revealButton.hidden = true;
  checkAgainButton.hidden = true;
  deleteButton.hidden = true;
  confirmation.hidden = true;
}

function offerDelete() {
  deleteButton.hidden = deleteTokens.get(shortCode) === null;
}

function gone(why) {
  deleteTokens.remove(shortCode);
  clearPaste();
  say('gone', why ?? 'There is no paste here: it never existed, or it was deleted, expired, already read once, '
      + 'or could not be stored.');
}

function retryLater(response, what, next) {
  polling ??= { startedAt: Date.now(), nextDelaySeconds: POLLING.firstDelaySeconds };
  if ((Date.now() - polling.startedAt) / 1000 >= POLLING.giveUpAfterSeconds) {
    polling = null;
    checkAgainButton.hidden = false;
    say('timeout', `${what} It is taking much longer than usual; check again later.`);
    return;
  }
  const delay = Math.max(retryAfterSeconds(response, 0), polling.nextDelaySeconds);
  polling.nextDelaySeconds = Math.min(POLLING.maxDelaySeconds, polling.nextDelaySeconds * POLLING.factor);
  say('waiting', `${what} Checking again in ${Math.ceil(delay)} s.`);
  pollTimer = window.setTimeout(next, delay * 1000);
}

/**
 * Before an encrypted paste is read, whether reading it burns it: the API's HEAD answers from the row alone and
 * consumes nothing (Paste-Read-Once: true). The link's '-' is not enough: only this page and PrivateBin's own write
 * it, while pbincli and pbcli print burn-after-reading links without it. So a paste that burns is fetched only once
 * the reader confirms, whatever its link says, and neither opening the link nor a preview running this script
 * consumes it.
 */
async function loadEncryptedOnceAsked() {
  let response;
  try {
    response = await fetch(pasteUrl, { method: 'HEAD', headers: { Accept: 'application/json' }, cache: 'no-store' });
  } catch {
    retryLater(null, 'No answer from the server (network error).', loadEncryptedOnceAsked);
    return;
  }
  switch (response.status) {
    case 200:
      polling = null;
      if (encrypted.burn || response.headers.get('Paste-Read-Once') === 'true') {
        revealButton.textContent = 'Open (this deletes it)';
        revealButton.hidden = false;
        say('read-once', 'This encrypted paste can be read only once. Opening it decrypts it here and deletes it from the server.');
      } else {
        await loadEncrypted();
      }
      return;
    case 202:
      retryLater(response, 'The paste is still being stored.', loadEncryptedOnceAsked);
      return;
    case 503:
      retryLater(response, 'The service is unavailable for a moment.', loadEncryptedOnceAsked);
      return;
    case 404: // a HEAD answer has no body to tell its error code by
      gone();
      return;
    case 451:
      takenDown();
      return;
    default:
      say('error', (await readError(response)).message);
  }
}

/**
 * An encrypted paste: PrivateBin's JSON API (/pb/?pasteid=) answers its ciphertext, decrypted here with the link's
 * key (and the password, asked for when the key alone does not open it). Reading one that burns after reading
 * consumes it: it is called for such a paste only once the reader confirmed ({@link loadEncryptedOnceAsked}).
 */
async function loadEncrypted() {
  let response;
  let answer;
  try {
    response = await fetch(`/pb/?pasteid=${encodeURIComponent(shortCode)}`, {
      headers: { Accept: 'application/json', 'X-Requested-With': 'JSONHttpRequest' },
      cache: 'no-store',
    });
    answer = await response.json();
  } catch {
    retryLater(null, 'No answer from the server (network error).', loadEncrypted);
    return;
  }
  if (answer.status !== 0) {
    if (response.headers.has('Retry-After')) {
      // still being stored, or the service briefly unavailable: PrivateBin's answer says when to ask again
      retryLater(response, answer.message ?? 'The paste is not ready yet.', loadEncrypted);
    } else if (response.status === 451) {
      takenDown();
    } else {
      gone(answer.message ?? 'The paste cannot be read.');
    }
    return;
  }
  polling = null;
  offerDelete();
  await decryptAndShow(answer, '');
}

async function decryptAndShow(answer, password) {
  let plain;
  try {
    plain = await decryptPaste(answer, encrypted.key, password);
  } catch (e) {
    if (e.name === 'PasteTooLarge') {
      tooLargeToOpen(answer);
      return;
    }
    if (e.name !== 'DecryptionFailed') {
      throw e;
    }
    passwordForm.hidden = false;
    passwordForm.onsubmit = async (event) => {
      event.preventDefault();
      await decryptAndShow(answer, passwordInput.value);
    };
    say('password', password ? 'Wrong password: try again.' : 'This paste needs a password.');
    passwordInput.focus();
    return;
  }
  passwordForm.hidden = true;
  // PrivateBin's read tells the seconds left (none: it never expires), not the creation time
  const timeToLive = answer.meta?.time_to_live;
  showContent({
    content: plain.text,
    sizeBytes: new TextEncoder().encode(plain.text).length,
    createdAt: null,
    expiresAt: Number.isFinite(timeToLive) ? new Date(Date.now() + timeToLive * 1000).toISOString() : null,
    fileName: null,
    language: null,
  });
  rawLink.hidden = true; // the stored object is ciphertext
  if (plain.burn) {
    deleteTokens.remove(shortCode);
    deleteButton.hidden = true;
    say('revealed', 'Decrypted in this page. It burned after reading: the server no longer has it. Copy it now if you need it.');
  } else {
    say('ready', 'Decrypted in this page: the server stores only ciphertext.');
  }
}

/** A paste that inflates past the page's cap (a deflate bomb would fill the tab's memory): said, not shown. */
function tooLargeToOpen(answer) {
  passwordForm.hidden = true;
  let why = `This paste decompresses to more than ${MAX_PLAINTEXT_BYTES / (1024 * 1024)} MiB, more than this page `
      + 'opens, so it is not shown.';
  if (answer.adata?.[3] === 1) {
    deleteTokens.remove(shortCode);
    deleteButton.hidden = true;
    why += ' It burned after reading: the server no longer has it.';
  }
  say('too-large', why);
}

async function load() {
  if (encrypted !== null) {
    await loadEncryptedOnceAsked();
    return;
  }
  let response;
  try {
    // no-cache: the browser's copy is never shown without asking (a 304 is cheap). Behind the edge the answer
    // can still be CloudFront's copy, up to 60 s old: a paste deleted within that minute can still show.
    response = await fetch(pasteUrl, { headers: { Accept: 'application/json' }, cache: 'no-cache' });
  } catch {
    retryLater(null, 'No answer from the server (network error).', load);
    return;
  }
  switch (response.status) {
    case 200: {
      polling = null;
      const paste = await response.json();
      offerDelete();
      if (Array.isArray(paste.files)) {
        showFiles(paste);
        say('ready', '');
      } else if (paste.readOnce || response.headers.get('Paste-Read-Once') === 'true') {
        showDetails(paste);
        revealButton.hidden = false;
        say('read-once', 'This paste can be read only once. Revealing it shows it here and deletes it from the server.');
      } else {
        showContent(paste);
        say('ready', '');
      }
      return;
    }
    case 202:
      retryLater(response, 'The paste is still being stored.', load);
      return;
    case 503:
      retryLater(response, 'The service is unavailable for a moment.', load);
      return;
    default:
      await failed(response, () => gone());
  }
}

/**
 * An error answer: the paste is gone when the API says so (404 PASTE_NOT_FOUND), taken down by the operator when it
 * answers 451 (PASTE_TAKEN_DOWN), else its message.
 */
async function failed(response, whenGone) {
  const error = await readError(response);
  switch (goneKind(response.status, error.code)) {
    case 'taken-down':
      takenDown();
      return;
    case 'gone':
      whenGone();
      return;
    default:
      say('error', error.message);
  }
}

function takenDown() {
  deleteTokens.remove(shortCode);
  clearPaste();
  reportLink.hidden = true;
  reportForm.hidden = true;
  say('taken-down', TAKEN_DOWN_MESSAGE);
}

/** The report form: its fields as a form body to POST /pastes/{code}/report, and the answer shown under it. */
async function sendReport(event) {
  event.preventDefault();
  const send = document.getElementById('report-send');
  send.disabled = true;
  reportForm.dataset.state = 'sending';
  try {
    const response = await fetch(`${pasteUrl}/report`, {
      method: 'POST',
      headers: { Accept: 'application/json' },
      body: new URLSearchParams(new FormData(reportForm)),
    });
    if (response.status === 202) {
      const receipt = await response.json();
      reportForm.dataset.state = 'sent';
      reportMessage.textContent = receipt.message;
      send.hidden = true;
      return;
    }
    const error = await readError(response);
    reportForm.dataset.state = 'error';
    reportMessage.textContent = goneKind(response.status, error.code) === null
      ? error.message
      : 'This paste is gone already: there is nothing left to report.';
  } catch {
    reportForm.dataset.state = 'error';
    reportMessage.textContent = 'No answer from the server (network error). Try again.';
  } finally {
    send.disabled = false;
  }
}

async function reveal() {
  if (encrypted !== null) {
    revealButton.hidden = true;
    await loadEncrypted();
    return;
  }
  revealButton.disabled = true;
  try {
    const response = await fetch(`${pasteUrl}/reveal`, { method: 'POST', headers: { Accept: 'application/json' } });
    switch (response.status) {
      case 200: {
        revealButton.hidden = true;
        deleteTokens.remove(shortCode);
        deleteButton.hidden = true;
        const revealed = await response.json();
        if (Array.isArray(revealed.files)) {
          // a large paste: a link to each file, valid a few minutes; the server deletes the files after them
          showFiles(revealed);
          rawLink.hidden = true;
          say('revealed', `This was its only reading: download the files now, the links work until `
            + `${formatInstant(revealed.linksExpireAt)}; the server then deletes them.`);
          return;
        }
        showContent(revealed);
        rawLink.hidden = true; // after showContent, which shows it: this page holds the only copy now
        say('revealed', 'This was its only reading: the paste is now deleted from the server. Copy it now if you need it.');
        return;
      }
      case 202:
      case 503:
        retryLater(response, 'The paste is not ready to be revealed yet.', reveal);
        return;
      case 409: // not read-once after all: an ordinary read shows it
        revealButton.hidden = true;
        await load();
        return;
      default:
        await failed(response, () => gone('This paste is gone: someone revealed it first, or it was deleted or expired.'));
    }
  } catch {
    say('error', 'No answer from the server (network error). The paste may or may not have been revealed; reload to see.');
  } finally {
    revealButton.disabled = false;
  }
}

async function deletePaste() {
  const token = deleteTokens.get(shortCode);
  if (token === null) {
    offerDelete();
    return;
  }
  confirmation.hidden = true;
  try {
    const response = await fetch(pasteUrl, { method: 'DELETE', headers: { 'Paste-Delete-Token': token } });
    if (response.status === 204) {
      deleteTokens.remove(shortCode);
      clearPaste();
      say('deleted', 'Deleted. The paste is gone for everyone.');
    } else {
      await failed(response, () => gone('This paste is already gone, or this browser\'s delete token no longer matches it.'));
    }
  } catch {
    say('error', 'No answer from the server (network error). Try deleting again.');
  }
}

revealButton.addEventListener('click', reveal);
checkAgainButton.addEventListener('click', () => {
  checkAgainButton.hidden = true;
  load();
});
deleteButton.addEventListener('click', () => {
  confirmation.hidden = false;
  document.getElementById('delete-confirm').focus();
});
document.getElementById('delete-cancel').addEventListener('click', () => {
  confirmation.hidden = true;
  deleteButton.focus();
});
document.getElementById('delete-confirm').addEventListener('click', deletePaste);

reportLink.addEventListener('click', (event) => {
  event.preventDefault();
  reportForm.hidden = false;
  document.getElementById('report-reason').focus();
});
document.getElementById('report-cancel').addEventListener('click', () => {
  reportForm.hidden = true;
  reportLink.focus();
});
reportForm.addEventListener('submit', sendReport);

content.addEventListener('click', selectFromClick);
window.addEventListener('hashchange', () => showSelection(true));
copyButton.addEventListener('click', copyContent);

// /raw/{code}: the exact bytes even to a browser, which /pastes/{code} sends to this page
rawLink.href = `/raw/${encodeURIComponent(shortCode)}`;
document.title = `${shortCode} · Pastebin`;
document.getElementById('title').textContent = `Paste ${shortCode}`;
offerDelete();
load();
