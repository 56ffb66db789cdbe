// PrivateBin's format v2, in the browser: the paste is encrypted here and only ciphertext leaves the page. The key
// travels in the link's fragment, which browsers never send; the server stores {v, adata, ct, meta} and cannot read
// it. Compatible with PrivateBin's own page and its command-line clients (pbincli, pbcli, the Go client).

const BASE58 = '123456789ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz';
const ITERATIONS = 100000;
const KEY_BITS = 256;
const TAG_BITS = 128;

/**
 * The most a paste may inflate to before the page gives up on it. Deflate reaches about 1,000:1, so without a cap
 * the largest paste the server takes (786,240 bytes of envelope, about 588 KB of ciphertext) could make every
 * reader's tab inflate most of a gigabyte. An honest paste stays far below: text deflates some 3 to 10 times, so the
 * largest is a few MiB, and 16 MiB still leaves room for very repetitive text (a log), which the page shows as lines.
 */
export const MAX_PLAINTEXT_BYTES = 16 * 1024 * 1024;

/**
 * The compressed input is fed to the inflater in slices this small, so one slice inflates to about 1 MiB at most
 * (deflate's ~1,000:1): the page holds at most that much past the cap before it stops.
 */
const INFLATE_SLICE_BYTES = 1024;

/** Bytes as base58 (Bitcoin's alphabet, leading zero bytes as '1'), as PrivateBin writes the key in the link. */
export function base58Encode(bytes) {
  let digits = [];
  for (const byte of bytes) {
    let carry = byte;
    for (let i = 0; i < digits.length; i++) {
      carry += digits[i] << 8;
      digits[i] = carry % 58;
      carry = (carry / 58) | 0;
    }
    while (carry > 0) {
      digits.push(carry % 58);
      carry = (carry / 58) | 0;
    }
  }
  let zeros = '';
  for (let i = 0; i < bytes.length && bytes[i] === 0; i++) {
    zeros += BASE58[0];
  }
  return zeros + digits.reverse().map(d => BASE58[d]).join('');
}

/** The inverse of {@link base58Encode}; null for a character outside the alphabet. */
export function base58Decode(text) {
  const bytes = [];
  for (const ch of text) {
    let carry = BASE58.indexOf(ch);
    if (carry < 0) {
      return null;
    }
    for (let i = 0; i < bytes.length; i++) {
      carry += bytes[i] * 58;
      bytes[i] = carry & 0xff;
      carry >>= 8;
    }
    while (carry > 0) {
      bytes.push(carry & 0xff);
      carry >>= 8;
    }
  }
  for (let i = 0; i < text.length && text[i] === BASE58[0]; i++) {
    bytes.push(0);
  }
  return new Uint8Array(bytes.reverse());
}

function toBase64(bytes) {
  let binary = '';
  for (const b of bytes) {
    binary += String.fromCharCode(b);
  }
  return btoa(binary);
}

function fromBase64(text) {
  const binary = atob(text);
  const bytes = new Uint8Array(binary.length);
  for (let i = 0; i < binary.length; i++) {
    bytes[i] = binary.charCodeAt(i);
  }
  return bytes;
}

async function transform(bytes, stream) {
  const output = new Blob([bytes]).stream().pipeThrough(stream);
  return new Uint8Array(await new Response(output).arrayBuffer());
}

/**
 * Raw deflate inflated chunk by chunk, stopping as soon as the total passes {@link MAX_PLAINTEXT_BYTES}: the
 * inflater is cancelled there, so a deflate bomb costs the tab at most the cap and a slice's worth.
 *
 * @throws Error with name 'PasteTooLarge' past the cap
 */
async function inflateBounded(bytes) {
  const inflater = new DecompressionStream('deflate-raw');
  const writer = inflater.writable.getWriter();
  const reader = inflater.readable.getReader();
  // each write waits for the inflater to take its slice, which it does only as fast as the reads below drain it;
  // the outcome is kept rather than left to reject unhandled when the reads stop first
  const writing = (async () => {
    for (let at = 0; at < bytes.length; at += INFLATE_SLICE_BYTES) {
      await writer.write(bytes.subarray(at, at + INFLATE_SLICE_BYTES));
    }
    await writer.close();
  })().then(() => null, (error) => error);
  const chunks = [];
  let total = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) {
      break;
    }
    total += value.length;
    if (total > MAX_PLAINTEXT_BYTES) {
      await reader.cancel(); // which fails the pending write: writing settles with that error, unread
      throw Object.assign(new Error('The paste inflates to more than this page opens'), { name: 'PasteTooLarge' });
    }
    chunks.push(value);
  }
  const failed = await writing;
  if (failed !== null) {
    throw failed;
  }
  const plain = new Uint8Array(total);
  let at = 0;
  for (const chunk of chunks) {
    plain.set(chunk, at);
    at += chunk.length;
  }
  return plain;
}

/** PBKDF2-SHA256 over the key's bytes followed by the password's UTF-8 bytes, as PrivateBin derives it. */
async function deriveKey(keyBytes, password, salt, iterations, bits) {
  const secret = new Uint8Array([...keyBytes, ...new TextEncoder().encode(password || '')]);
  const material = await crypto.subtle.importKey('raw', secret, { name: 'PBKDF2' }, false, ['deriveKey']);
  return crypto.subtle.deriveKey(
    { name: 'PBKDF2', salt, iterations, hash: 'SHA-256' },
    material,
    { name: 'AES-GCM', length: bits },
    false,
    ['encrypt', 'decrypt'],
  );
}

/** Whether this browser can compress (CompressionStream with raw deflate): PrivateBin's 'zlib'. */
export function canCompress() {
  try {
    return typeof CompressionStream === 'function' && !!new CompressionStream('deflate-raw');
  } catch {
    return false;
  }
}

/**
 * Encrypts {@code text} into PrivateBin's create request.
 *
 * @param text      the paste
 * @param options   {password, burn, formatter ('plaintext' | 'syntaxhighlighting' | 'markdown'), expire}
 * @returns {{request: object, key: string}} the request body to POST, and the base58 key for the link's fragment
 */
export async function encryptPaste(text, options) {
  const key = crypto.getRandomValues(new Uint8Array(32));
  const iv = crypto.getRandomValues(new Uint8Array(16));
  const salt = crypto.getRandomValues(new Uint8Array(8));
  const compression = canCompress() ? 'zlib' : 'none';
  const spec = [toBase64(iv), toBase64(salt), ITERATIONS, KEY_BITS, TAG_BITS, 'aes', 'gcm', compression];
  const adata = [spec, options.formatter || 'plaintext', 0, options.burn ? 1 : 0];
  let plain = new TextEncoder().encode(JSON.stringify({ paste: text }));
  if (compression === 'zlib') {
    plain = await transform(plain, new CompressionStream('deflate-raw'));
  }
  const aesKey = await deriveKey(key, options.password, salt, ITERATIONS, KEY_BITS);
  const ct = await crypto.subtle.encrypt(
    { name: 'AES-GCM', iv, additionalData: new TextEncoder().encode(JSON.stringify(adata)), tagLength: TAG_BITS },
    aesKey,
    plain,
  );
  return {
    request: { v: 2, adata, ct: toBase64(new Uint8Array(ct)), meta: { expire: options.expire || '1week' } },
    key: base58Encode(key),
  };
}

/**
 * Decrypts a paste as the API answers it ({adata, ct, ...}) with the link's base58 key and the password, if any.
 * The additional data is the JSON of adata exactly as the server returned it: a server that changed it would make
 * the authentication fail, never yield other plaintext.
 *
 * @returns {Promise<{text: string, attachment: string|undefined, attachmentName: string|undefined,
 *   formatter: string, burn: boolean}>}
 * @throws Error with name 'DecryptionFailed' when the key or password is wrong (or the paste was altered), and
 *   with name 'PasteTooLarge' when it inflates past {@link MAX_PLAINTEXT_BYTES}
 */
export async function decryptPaste(paste, keyText, password) {
  const key = base58Decode(keyText);
  const adata = paste.adata;
  if (!key || !Array.isArray(adata) || !Array.isArray(adata[0])) {
    throw Object.assign(new Error('This link is not a complete encrypted-paste link'), { name: 'DecryptionFailed' });
  }
  const [iv, salt, iterations, bits, tagBits, , , compression] = adata[0];
  let plain;
  try {
    const aesKey = await deriveKey(key, password, fromBase64(salt), iterations, bits);
    plain = new Uint8Array(
      await crypto.subtle.decrypt(
        {
          name: 'AES-GCM',
          iv: fromBase64(iv),
          additionalData: new TextEncoder().encode(JSON.stringify(adata)),
          tagLength: tagBits,
        },
        aesKey,
        fromBase64(paste.ct),
      ),
    );
  } catch {
    throw Object.assign(new Error('Wrong key or password'), { name: 'DecryptionFailed' });
  }
  if (compression === 'zlib') {
    plain = await inflateBounded(plain);
  }
  const message = JSON.parse(new TextDecoder().decode(plain));
  return {
    text: typeof message.paste === 'string' ? message.paste : '',
    attachment: message.attachment,
    attachmentName: message.attachment_name,
    formatter: adata[1],
    burn: adata[3] === 1,
  };
}
