// The create page: posts the form as JSON (content, expiry, read-once, language, file name) with an
// Idempotency-Key, then shows the paste's address. Chosen or dropped files make a large paste instead: hashed here,
// declared in one JSON create, then each PUT straight to S3 with its pre-signed request.
import { deleteTokens, formatInstant, formatSize, readError } from '/assets/api.js';
import { encryptPaste } from '/assets/privatebin.js';

const page = document.getElementById('page');
const form = document.getElementById('create-form');
const content = document.getElementById('content');
const expiresIn = document.getElementById('expires-in');
const readOnce = document.getElementById('read-once');
const language = document.getElementById('language');
const fileName = document.getElementById('file-name');
const submit = document.getElementById('create');
const message = document.getElementById('message');
const result = document.getElementById('result');
const link = document.getElementById('paste-link');
const details = document.getElementById('result-details');
const encrypt = document.getElementById('encrypt');
const passwordOption = document.getElementById('password-option');
const password = document.getElementById('password');
const credentialOption = document.getElementById('credential-option');
const credential = document.getElementById('credential');
const filesInput = document.getElementById('files');
const dropZone = document.getElementById('drop-zone');
const fileList = document.getElementById('file-list');

/** The form's expiry (seconds) as PrivateBin's meta.expire names it. */
const PRIVATEBIN_EXPIRY = {
  '': 'never', 600: '10min', 3600: '1hour', 86400: '1day', 604800: '1week', 2592000: '1month', 31536000: '1year',
};

encrypt.addEventListener('change', () => {
  passwordOption.hidden = !encrypt.checked;
});

// A private instance (CreateAccess api-key or oidc) answers a create without a valid credential 401, in the API's
// shape or API Gateway's own; the page then asks for an API key or a sign-in token and sends it as
// Authorization: Bearer. It is kept for this tab only (sessionStorage), never in the page's address or a cookie.
const CREDENTIAL_KEY = 'pastebin.credential';
try {
  const kept = sessionStorage.getItem(CREDENTIAL_KEY);
  if (kept) {
    credential.value = kept;
    credentialOption.hidden = false;
  }
} catch {
  // storage refused (a private window's policy): the field is asked for again after a 401
}

/** The Authorization header of a create, when the page holds a credential. */
function authorization() {
  const value = credential.value.trim();
  return value ? { Authorization: `Bearer ${value}` } : {};
}

function keepCredential() {
  try {
    if (credential.value.trim()) {
      sessionStorage.setItem(CREDENTIAL_KEY, credential.value.trim());
    }
  } catch {
    // not kept: asked for again in a new tab
  }
}

/** A 401 to a create: the instance needs a credential, or the one given is wrong, expired or revoked. */
function askForCredential(serverMessage) {
  const hadOne = credential.value.trim() !== '';
  credentialOption.hidden = false;
  credential.focus();
  say('error', hadOne
    ? `The server refused this API key or token: ${serverMessage}. Enter a valid one and create again.`
    : 'This instance takes pastes only from known people: enter your API key or sign-in token, then create again.');
}

// The key of the request in flight or last unanswered: clicking again after a lost answer (a network error,
// a timeout, a 5xx) sends the same body with the same key, and the API returns the paste it already created
// instead of a second one. A changed form, or a definite answer, starts a new key.
let pending = null;

function newIdempotencyKey() {
  // getRandomValues works on plain-HTTP origins too, unlike crypto.randomUUID
  const bytes = crypto.getRandomValues(new Uint8Array(16));
  return Array.from(bytes, (b) => b.toString(16).padStart(2, '0')).join('');
}

function say(state, text) {
  page.dataset.state = state;
  message.textContent = text;
}

function showCreated(created) {
  const address = new URL(`/p/${encodeURIComponent(created.shortCode)}`, window.location.href).href;
  link.href = address;
  link.textContent = address;
  const lines = [];
  lines.push(created.expiresAt ? `Expires ${formatInstant(created.expiresAt)}.` : 'Never expires.');
  if (created.readOnce) {
    lines.push('Burns after reading: opening the link and revealing it deletes it.');
  }
  if (created.deleteToken && !deleteTokens.put(created.shortCode, created.deleteToken)) {
    lines.push('This browser cannot store the delete token, so it cannot delete the paste later.');
  }
  details.replaceChildren(...lines.map((line) => {
    const item = document.createElement('li');
    item.textContent = line;
    return item;
  }));
  result.hidden = false;
}

/**
 * Encrypted in this page (PrivateBin's format v2) and posted to its API under /pb/: the link carries the key in its
 * fragment ('-' first when it burns after reading, so the page asks before opening it), which no request includes.
 */
async function createEncrypted() {
  const burn = readOnce.checked;
  const { request, key } = await encryptPaste(content.value, {
    password: password.value,
    burn,
    formatter: language.value ? 'syntaxhighlighting' : 'plaintext',
    expire: PRIVATEBIN_EXPIRY[expiresIn.value] ?? '1week',
  });
  const response = await fetch('/pb/', {
    method: 'POST',
    headers: {
      'Content-Type': 'application/json',
      Accept: 'application/json',
      'X-Requested-With': 'JSONHttpRequest',
      ...authorization(),
    },
    body: JSON.stringify(request),
  });
  if (response.status === 401) {
    askForCredential((await readError(response)).message);
    return;
  }
  keepCredential();
  const answer = await response.json();
  if (answer.status !== 0) {
    say('error', answer.message ?? `The server answered ${response.status}`);
    return;
  }
  const address = new URL(`/pb/?${encodeURIComponent(answer.id)}#${burn ? '-' : ''}${key}`, window.location.href).href;
  link.href = address;
  link.textContent = address;
  const lines = ['Encrypted in this page: the server stores only ciphertext, and the key is in the link alone.'];
  if (password.value) {
    lines.push('Opening it asks for the password.');
  }
  if (burn) {
    lines.push('Burns after reading: opening the link and confirming deletes it.');
  }
  if (answer.deletetoken && !deleteTokens.put(answer.id, answer.deletetoken)) {
    lines.push('This browser cannot store the delete token, so it cannot delete the paste later.');
  }
  details.replaceChildren(...lines.map((line) => {
    const item = document.createElement('li');
    item.textContent = line;
    return item;
  }));
  result.hidden = false;
  say('created', 'Created. Share the link below: whoever has it can read the paste.');
  link.focus();
}


// --- Large pastes: files hashed here, declared in one create, each PUT to S3 with its pre-signed request ---------

/** The files chosen or dropped, each with its row in the list: {file, row, progress, state}. */
let chosen = [];

function chooseFiles(files) {
  chosen = Array.from(files, (file) => {
    const row = document.createElement('li');
    row.className = 'file';
    const name = document.createElement('span');
    name.className = 'file-name';
    name.textContent = file.name;
    const size = document.createElement('span');
    size.className = 'file-size';
    size.textContent = formatSize(file.size);
    const progress = document.createElement('progress');
    progress.max = 100;
    progress.value = 0;
    progress.setAttribute('aria-label', `Upload of ${file.name}`);
    const state = document.createElement('span');
    state.className = 'file-state';
    row.append(name, size, progress, state);
    return { file, row, progress, state };
  });
  chosen.forEach((entry) => fileState(entry, 'chosen', 'ready to upload'));
  fileList.replaceChildren(...chosen.map((entry) => entry.row));
  dropZone.dataset.state = chosen.length ? 'chosen' : 'empty';
  // with files the text is not asked for: the files are the paste
  content.required = chosen.length === 0;
}

/** A file's row: data-state (chosen, hashing, uploading, done, failed) and its words. */
function fileState(entry, state, text) {
  entry.row.dataset.state = state;
  entry.state.textContent = text;
}

filesInput.addEventListener('change', () => chooseFiles(filesInput.files));
dropZone.addEventListener('dragover', (event) => {
  event.preventDefault(); // lets the drop happen
  dropZone.dataset.state = 'over';
});
dropZone.addEventListener('dragleave', () => {
  dropZone.dataset.state = chosen.length ? 'chosen' : 'empty';
});
dropZone.addEventListener('drop', (event) => {
  event.preventDefault(); // the browser would otherwise open the file
  filesInput.files = event.dataTransfer.files; // the input shows what was dropped, for keyboard users too
  chooseFiles(event.dataTransfer.files);
});

/**
 * The file's SHA-256 as hex. SubtleCrypto digests a whole buffer only (no streaming), so each file is read into
 * memory in its turn: up to its size (the API's file limit, 100 MiB) while it is hashed, then released.
 */
async function sha256Hex(file) {
  const digest = await crypto.subtle.digest('SHA-256', await file.arrayBuffer());
  return Array.from(new Uint8Array(digest), (b) => b.toString(16).padStart(2, '0')).join('');
}

/**
 * PUTs a file to its pre-signed request with XMLHttpRequest, whose upload progress events move the file's bar.
 * The headers are the ones the create signed, but Content-Length, which the browser sets itself from the file
 * (and refuses to be told). Resolves true when S3 took the bytes.
 */
function upload(entry, request) {
  return new Promise((resolve) => {
    const xhr = new XMLHttpRequest();
    xhr.open(request.method, request.url);
    for (const [name, value] of Object.entries(request.headers)) {
      if (name.toLowerCase() !== 'content-length') {
        xhr.setRequestHeader(name, value);
      }
    }
    xhr.upload.onprogress = (event) => {
      if (event.lengthComputable) {
        const percent = Math.floor((event.loaded / event.total) * 100);
        entry.progress.value = percent;
        fileState(entry, 'uploading', `uploading ${percent} %`);
      }
    };
    xhr.onload = () => {
      if (xhr.status >= 200 && xhr.status < 300) {
        entry.progress.value = 100;
        fileState(entry, 'done', 'done');
        resolve(true);
      } else {
        // S3 answers an XML error whose Message says why (a changed file: its size or SHA-256 no longer match)
        const reason = /<Message>([^<]*)<\/Message>/.exec(xhr.responseText ?? '')?.[1];
        fileState(entry, 'failed', `failed: storage answered ${xhr.status}${reason ? ` (${reason})` : ''}`);
        resolve(false);
      }
    };
    xhr.onerror = () => {
      fileState(entry, 'failed', 'failed: no answer from storage (network error, or it refused this site)');
      resolve(false);
    };
    fileState(entry, 'uploading', 'uploading 0 %');
    xhr.send(entry.file);
  });
}

/**
 * A large paste: the files' names, sizes, SHA-256 and types in one JSON create (limits are refused there, before any
 * byte goes to S3), then every file to its pre-signed PUT. The paste is stored once the upload worker has verified
 * every file; until then its page says it is being stored.
 */
async function createLarge() {
  if (encrypt.checked) {
    say('error', 'Files are sent as they are, not encrypted: uncheck "Encrypt in the browser" to send them.');
    return;
  }
  say('hashing', 'Reading the files to hash them…');
  const files = [];
  for (const entry of chosen) {
    fileState(entry, 'hashing', 'hashing');
    const declared = { name: entry.file.name, size: entry.file.size, sha256: await sha256Hex(entry.file) };
    if (entry.file.type) {
      declared.contentType = entry.file.type;
    }
    files.push(declared);
    fileState(entry, 'chosen', 'hashed');
  }
  const request = { files };
  if (expiresIn.value) {
    request.expiresIn = Number(expiresIn.value);
  }
  if (readOnce.checked) {
    request.readOnce = true; // its reveal answers a short-lived link to each file, then it is gone
  }
  say('creating', 'Creating…');
  // no Idempotency-Key: a replay would sign new uploads for files that may be on their way (the API refuses one)
  const response = await fetch('/pastes', {
    method: 'POST',
    headers: { 'Content-Type': 'application/json; charset=utf-8', Accept: 'application/json', ...authorization() },
    body: JSON.stringify(request),
  });
  if (response.status === 401) {
    askForCredential((await readError(response)).message);
    return;
  }
  if (response.status !== 201) {
    const error = (await readError(response)).message;
    chosen.forEach((entry) => fileState(entry, 'failed', 'not sent'));
    say('error', error);
    return;
  }
  keepCredential();
  const created = await response.json();
  say('uploading', 'Uploading…');
  const results = await Promise.all(created.uploads.map((signed, i) => upload(chosen[i], signed)));
  showCreated(created);
  const failed = results.filter((ok) => !ok).length;
  if (failed > 0) {
    say('error', `${failed} of ${results.length} files did not reach storage (see each file): the paste will not `
        + 'be stored. Create it again.');
    return;
  }
  say('created', 'Uploaded. The paste is stored once every file is checked; share the link below.');
  link.focus();
}

form.addEventListener('submit', async (event) => {
  event.preventDefault();
  if (chosen.length > 0) {
    submit.disabled = true;
    result.hidden = true;
    try {
      await createLarge();
    } catch {
      say('error', 'No answer from the server (network error), or this browser could not read a file.');
    } finally {
      submit.disabled = false;
    }
    return;
  }
  if (encrypt.checked) {
    submit.disabled = true;
    result.hidden = true;
    say('creating', 'Encrypting and creating…');
    try {
      await createEncrypted();
    } catch {
      say('error', 'No answer from the server (network error), or this browser cannot encrypt.');
    } finally {
      submit.disabled = false;
    }
    return;
  }
  const request = { content: content.value };
  if (expiresIn.value) {
    request.expiresIn = Number(expiresIn.value);
  }
  if (readOnce.checked) {
    request.readOnce = true;
  }
  if (language.value) {
    request.language = language.value;
  }
  if (fileName.value.trim()) {
    request.fileName = fileName.value.trim(); // the API says what it refuses, with the rule
  }
  const body = JSON.stringify(request);
  if (pending === null || pending.body !== body) {
    pending = { body, key: newIdempotencyKey() };
  }
  submit.disabled = true;
  result.hidden = true;
  say('creating', 'Creating…');
  try {
    const response = await fetch('/pastes', {
      method: 'POST',
      headers: {
        'Content-Type': 'application/json; charset=utf-8',
        Accept: 'application/json',
        'Idempotency-Key': pending.key,
        ...authorization(),
      },
      body,
    });
    if (response.status === 401) {
      pending = null;
      askForCredential((await readError(response)).message);
    } else if (response.status === 201) {
      keepCredential();
      pending = null;
      showCreated(await response.json());
      say('created', 'Created. Share the link below.');
      link.focus();
    } else {
      if (response.status < 500) {
        pending = null; // the API judged this request: sending it again would get the same answer
      }
      say('error', (await readError(response)).message);
    }
  } catch {
    say('error', 'No answer from the server (network error). Trying again is safe: it will not create the paste twice.');
  } finally {
    submit.disabled = false;
  }
});
