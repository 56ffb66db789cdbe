// The view page: reads /pastes/{code} as JSON and shows it as text; polls while it is being stored; offers
// Reveal for a read-once paste and Delete when this browser holds the paste's delete token.
import { deleteTokens, formatInstant, formatSize, readError, retryAfterSeconds } from '/assets/api.js';

/**
 * Polling while the paste is IN_PROGRESS (or the API is briefly unavailable): never sooner than the API's
 * Retry-After, with our own delay growing 1.5x per answer up to 10 s, and giving up after 2 minutes (an upload
 * normally ends within about 30 s; the breaker can hold one for longer).
 */
const POLLING = { firstDelaySeconds: 1, factor: 1.5, maxDelaySeconds: 10, giveUpAfterSeconds: 120 };

const shortCode = codeFromAddress();
const pasteUrl = `/pastes/${encodeURIComponent(shortCode)}`;

const page = document.getElementById('page');
const message = document.getElementById('message');
const content = document.getElementById('content');
const details = document.getElementById('details');
const revealButton = document.getElementById('reveal');
const checkAgainButton = document.getElementById('check-again');
const deleteButton = document.getElementById('delete');
const confirmation = document.getElementById('delete-confirmation');
const rawLink = document.getElementById('raw');

/** The short code in /p/{shortCode}, as typed: the API, not this page, says whether it is well formed. */
function codeFromAddress() {
  const raw = window.location.pathname.replace(/^\/p\//, '');
  try {
    return decodeURIComponent(raw);
  } catch {
    return raw; // a malformed %-escape: let the API refuse it
  }
}

let polling = null; // { startedAt, nextDelaySeconds } while waiting for the paste
let pollTimer = null;

function say(state, text) {
  page.dataset.state = state;
  message.textContent = text;
}

function showDetails(paste) {
  document.getElementById('size').textContent = formatSize(paste.sizeBytes);
  document.getElementById('created').textContent = paste.createdAt ? formatInstant(paste.createdAt) : '—';
  document.getElementById('expires').textContent = paste.expiresAt ? formatInstant(paste.expiresAt) : 'never';
  details.hidden = false;
}

/** The paste as text: textContent never parses markup, so "<script>" is shown, not run. */
function showContent(paste) {
  content.textContent = paste.content;
  content.hidden = false;
  showDetails(paste);
  rawLink.hidden = false;
}

function clearPaste() {
  window.clearTimeout(pollTimer);
  polling = null;
  content.textContent = '';
  content.hidden = true;
  details.hidden = true;
  rawLink.hidden = true;
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

async function load() {
  let response;
  try {
    // no-cache: revalidate (a 304 is cheap), so a deleted or expired paste is never shown from the cache
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
      if (paste.readOnce || response.headers.get('Paste-Read-Once') === 'true') {
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

/** An error answer: the paste is gone when the API says so (404 PASTE_NOT_FOUND), else its message. */
async function failed(response, whenGone) {
  const error = await readError(response);
  if (error.code === 'PASTE_NOT_FOUND') {
    whenGone();
  } else {
    say('error', error.message);
  }
}

async function reveal() {
  revealButton.disabled = true;
  try {
    const response = await fetch(`${pasteUrl}/reveal`, { method: 'POST', headers: { Accept: 'application/json' } });
    switch (response.status) {
      case 200:
        revealButton.hidden = true;
        deleteTokens.remove(shortCode);
        deleteButton.hidden = true;
        showContent(await response.json());
        rawLink.hidden = true; // this page holds the only copy now
        say('revealed', 'This was its only reading: the paste is now deleted from the server. Copy it now if you need it.');
        return;
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

rawLink.href = pasteUrl;
document.title = `${shortCode} · Pastebin`;
document.getElementById('title').textContent = `Paste ${shortCode}`;
offerDelete();
load();
