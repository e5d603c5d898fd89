// Calls to the platform's REST APIs with the signed-in user's HTTP Basic credentials.

const STORAGE_KEY = 'erasure.dashboard.session';

/** A refused or failed call: status 0 when the service could not be reached at all. */
export class ApiError extends Error {
  constructor(service, status, message) {
    super(message);
    this.service = service;
    this.status = status;
  }
}

/** The signed-in user, kept for this browser tab only (sessionStorage). */
export const session = {
  get() {
    const raw = sessionStorage.getItem(STORAGE_KEY);
    return raw ? JSON.parse(raw) : null;
  },
  set(user, password) {
    const bytes = new TextEncoder().encode(`${user}:${password}`);
    const authorization = 'Basic ' + btoa(String.fromCharCode(...bytes));
    sessionStorage.setItem(STORAGE_KEY, JSON.stringify({ user, authorization }));
  },
  clear() {
    sessionStorage.removeItem(STORAGE_KEY);
  },
};

/**
 * The control plane (same origin) and the other services (their base URLs from /dashboard/config.json,
 * reached cross-origin: they must list this page's origin in erasure.access.cors.allowed-origins).
 */
export function createApi(config) {
  const bases = { controlPlane: '', ...config.services };
  const call = (service, path, options = {}) => request(service, bases[service], path, options);
  return {
    get: (path) => call('controlPlane', path),
    post: (path, body) => call('controlPlane', path, { method: 'POST', body }),
    put: (path, body) => call('controlPlane', path, { method: 'PUT', body }),
    service: (name, path, options) => call(name, path, options),
    base: (name) => bases[name],
  };
}

const SERVICE_NAMES = {
  controlPlane: 'control plane', deletionLog: 'deletion-log-service', recovery: 'recovery-service',
  deletion: 'deletion-service',
};

async function request(service, base, path, { method = 'GET', body, auth = session.get() } = {}) {
  const sameOrigin = !base;
  // X-Requested-By: the services refuse a write with Basic credentials without it (service-support's
  // CrossSiteWriteGuard), because no other site can make a browser send it
  const headers = { Accept: 'application/json', 'X-Requested-By': 'erasure-dashboard' };
  if (auth) {
    headers.Authorization = auth.authorization;
  }
  if (sameOrigin) {
    // Spring Security then answers 401 without WWW-Authenticate, so the browser shows no password prompt
    headers['X-Requested-With'] = 'XMLHttpRequest';
  }
  if (body !== undefined) {
    headers['Content-Type'] = 'application/json';
  }
  const name = SERVICE_NAMES[service] || service;
  let response;
  try {
    response = await fetch((base || '') + path, {
      method, headers, body: body === undefined ? undefined : JSON.stringify(body), credentials: 'omit', cache: 'no-store',
    });
  } catch (e) {
    throw new ApiError(service, 0, `cannot reach ${name} at ${base || location.origin}` + (sameOrigin ? ''
      : ' (is it running, and does its erasure.access.cors.allowed-origins list ' + location.origin + '?)'));
  }
  const text = await response.text();
  let data = null;
  if (text) {
    try {
      data = JSON.parse(text);
    } catch {
      data = text;
    }
  }
  if (!response.ok) {
    throw new ApiError(service, response.status, problem(name, response, data));
  }
  return data;
}

// RFC 9457 problem details carry the reason in "detail"; Boot's default error body in "message"/"error"
function problem(name, response, data) {
  const detail = data && typeof data === 'object' ? (data.detail || data.message || data.error) : data;
  if (response.status === 401) {
    return `${name}: not signed in, or this user and password are unknown there`;
  }
  const text = detail ? String(detail).trim() : `${response.status} ${response.statusText}`;
  return response.status === 403 ? `refused by ${name}: ${text}` : `${name}: ${text}`;
}
