// What the create and view pages share: reading the API's answers, and the delete tokens this browser keeps.

/**
 * An error answer as {code, message}: the API's JSON error body (its message with the request id to quote), or,
 * when something else answered (a gateway without a route, a proxy), the status line with no code.
 */
export async function readError(response) {
  try {
    const error = await response.json();
    if (error && typeof error.message === 'string') {
      const message = error.requestId ? `${error.message} (request ${error.requestId})` : error.message;
      return { code: typeof error.code === 'string' ? error.code : null, message };
    }
  } catch {
    // not JSON: fall through
  }
  return { code: null, message: `The server answered ${response.status} ${response.statusText}`.trim() };
}

/**
 * What an error answer means for the paste on the page: 'taken-down' for 451 (RFC 7725, code PASTE_TAKEN_DOWN: the
 * operator removed it for legal reasons), 'gone' for 404 PASTE_NOT_FOUND, else null (an error to show as such).
 */
export function goneKind(status, code) {
  if (status === 451 || code === 'PASTE_TAKEN_DOWN') {
    return 'taken-down';
  }
  return code === 'PASTE_NOT_FOUND' ? 'gone' : null;
}

/** What the page says about a paste the operator took down: distinct from a paste that is merely gone. */
export const TAKEN_DOWN_MESSAGE = 'This paste was removed by the operator for legal reasons.';

/** Retry-After in seconds (the API sends delta-seconds), or the fallback when absent or unreadable. */
export function retryAfterSeconds(response, fallback) {
  const seconds = Number.parseInt(response?.headers.get('Retry-After') ?? '', 10);
  return Number.isFinite(seconds) && seconds >= 0 ? seconds : fallback;
}

/**
 * The delete token the API returns once per create, kept in localStorage by short code: only the browser that
 * created a paste can delete it. Storage may be unavailable (private modes, policies): then there is no Delete.
 */
export const deleteTokens = {
  key: (shortCode) => `pastebin.deleteToken.${shortCode}`,
  get(shortCode) {
    try {
      return localStorage.getItem(this.key(shortCode));
    } catch {
      return null;
    }
  },
  put(shortCode, token) {
    try {
      localStorage.setItem(this.key(shortCode), token);
      return true;
    } catch {
      return false;
    }
  },
  remove(shortCode) {
    try {
      localStorage.removeItem(this.key(shortCode));
    } catch {
      // nothing kept, nothing to remove
    }
  },
};

/** "in 59 minutes"-style text is ambiguous across time zones; a local date and time is not. */
export function formatInstant(iso) {
  const date = new Date(iso);
  return Number.isNaN(date.getTime()) ? iso : date.toLocaleString();
}

export function formatSize(bytes) {
  if (bytes < 1024) {
    return `${bytes} bytes`;
  }
  if (bytes < 1024 * 1024) {
    return `${(bytes / 1024).toFixed(1)} KiB (${bytes} bytes)`;
  }
  return `${(bytes / (1024 * 1024)).toFixed(1)} MiB (${bytes} bytes)`;
}
