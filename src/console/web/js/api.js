// The console's one way to the server: the OAuth token endpoint, the Iceberg REST API and the
// management API, always with the user's own bearer token. The token lives in sessionStorage
// (this tab only, gone when it closes); the client secret is never stored.
import { parseJson } from "./json.js";

const SESSION_KEY = "firn.console.session";
const TOKEN_PATH = "/api/catalog/v1/oauth/tokens";
export const MGMT = "/api/management/v1";

let settings = { realmHeader: "Polaris-Realm", grantable: {} };

// /ui/console.json: the server's realm header and the privileges grantable per securable type.
export async function loadSettings() {
  const res = await fetch("/ui/console.json", { cache: "no-cache", credentials: "omit" });
  if (!res.ok) throw await errorFrom(res);
  settings = await res.json();
  return settings;
}

export function grantable(type) {
  return settings.grantable?.[type] ?? [];
}

// An error answered by the server: HTTP status, the ErrorModel's type (or the OAuth error) and
// its message.
export class ApiError extends Error {
  constructor(status, type, message) {
    super(message);
    this.status = status;
    this.type = type;
  }
}

async function errorFrom(res) {
  const text = await res.text();
  let type = `HTTP ${res.status}`;
  let message = text || res.statusText;
  try {
    const body = JSON.parse(text);
    if (body && typeof body.error === "object" && body.error !== null) {
      type = body.error.type ?? type;
      message = body.error.message ?? message;
    } else if (body && typeof body.error === "string") {
      type = body.error;
      message = body.error_description ?? body.error;
    }
  } catch {
    // not JSON: the text as it came
  }
  return new ApiError(res.status, type, message);
}

export function currentSession() {
  try {
    const s = JSON.parse(sessionStorage.getItem(SESSION_KEY));
    return s && typeof s.token === "string" ? s : null;
  } catch {
    return null;
  }
}

export function logout() {
  sessionStorage.removeItem(SESSION_KEY);
}

function realmHeaders(realm) {
  return realm ? { [settings.realmHeader]: realm } : {};
}

// Client credentials → a bearer token for this tab.
export async function login({ clientId, clientSecret, realm, scope }) {
  const form = new URLSearchParams({
    grant_type: "client_credentials",
    client_id: clientId,
    client_secret: clientSecret,
    scope: scope || "PRINCIPAL_ROLE:ALL",
  });
  const res = await fetch(TOKEN_PATH, {
    method: "POST",
    headers: { "Content-Type": "application/x-www-form-urlencoded", ...realmHeaders(realm) },
    body: form,
    credentials: "omit",
    cache: "no-store",
  });
  if (!res.ok) throw await errorFrom(res);
  const body = await res.json();
  const session = {
    token: body.access_token,
    realm: realm || "",
    clientId,
    expiresAt: Date.now() + Number(body.expires_in ?? 3600) * 1000,
  };
  sessionStorage.setItem(SESSION_KEY, JSON.stringify(session));
  return session;
}

// Called when the server answers 401: the session is over (expired, rotated or revoked).
let onExpired = () => {};
export function setExpiredHandler(fn) {
  onExpired = fn;
}

// One API request. `query` entries that are undefined, null or "" are left out. Resolves to the
// parsed JSON body (null for an empty one), rejects with ApiError for any non-2xx answer.
export async function call(method, path, { query, body } = {}) {
  const session = currentSession();
  if (!session) throw new ApiError(401, "NotAuthorizedException", "Not logged in");
  const url = new URL(path, window.location.origin);
  for (const [k, v] of Object.entries(query ?? {})) {
    if (v !== undefined && v !== null && v !== "") url.searchParams.set(k, String(v));
  }
  const headers = {
    Authorization: `Bearer ${session.token}`,
    Accept: "application/json",
    ...realmHeaders(session.realm),
  };
  if (body !== undefined) headers["Content-Type"] = "application/json";
  const res = await fetch(url, {
    method,
    headers,
    body: body === undefined ? undefined : JSON.stringify(body),
    credentials: "omit",
    cache: "no-store",
  });
  if (!res.ok) {
    const error = await errorFrom(res);
    if (res.status === 401) {
      logout();
      onExpired(error);
    }
    throw error;
  }
  const text = await res.text();
  return text ? parseJson(text) : null;
}

export const get = (path, query) => call("GET", path, { query });

// Every page of an Iceberg list endpoint (next-page-token), at most `maxPages` of them.
export async function listAll(path, key, query = {}, maxPages = 100) {
  const items = [];
  let token;
  for (let page = 0; page < maxPages; page++) {
    const body = await get(path, { ...query, pageToken: token });
    items.push(...(body?.[key] ?? []));
    token = body?.["next-page-token"];
    if (!token) return items;
  }
  return items;
}

// ---- Iceberg REST paths -------------------------------------------------------------------

const prefixes = new Map();

// The REST prefix of a catalog, as /v1/config?warehouse=<catalog> overrides it.
export async function catalogBase(catalog) {
  if (!prefixes.has(catalog)) {
    const config = await get("/v1/config", { warehouse: catalog });
    const prefix = config?.overrides?.prefix ?? config?.defaults?.prefix;
    if (prefix === undefined) {
      throw new ApiError(0, "ConsoleError", `The server named no REST prefix for ${catalog}`);
    }
    prefixes.set(catalog, `/v1/${encodeURIComponent(prefix)}`);
  }
  return prefixes.get(catalog);
}

// A namespace in a path: its levels percent-encoded, joined by %1F.
export function nsPath(parts) {
  return parts.map(encodeURIComponent).join("%1F");
}

export function forgetPrefixes() {
  prefixes.clear();
}
