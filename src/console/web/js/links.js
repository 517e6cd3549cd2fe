// The console's addresses (hash routes; see router.js). Every name is percent-encoded, and a
// namespace's levels are joined by U+001F before encoding, so any name round-trips.
const e = encodeURIComponent;

export const NS_SEP = "\x1f";

export const link = {
  catalogs: () => "#/catalogs",
  catalog: (c) => `#/catalogs/${e(c)}`,
  namespace: (c, ns) => `#/catalogs/${e(c)}/namespaces/${e(ns.join(NS_SEP))}`,
  table: (c, ns, t) => `#/catalogs/${e(c)}/namespaces/${e(ns.join(NS_SEP))}/tables/${e(t)}`,
  view: (c, ns, v) => `#/catalogs/${e(c)}/namespaces/${e(ns.join(NS_SEP))}/views/${e(v)}`,
  catalogRoles: (c) => `#/catalogs/${e(c)}/roles`,
  catalogRole: (c, r) => `#/catalogs/${e(c)}/roles/${e(r)}`,
  principals: () => "#/principals",
  principal: (p) => `#/principals/${e(p)}`,
  principalRoles: () => "#/principal-roles",
  principalRole: (r) => `#/principal-roles/${e(r)}`,
  audit: (query) => `#/audit${queryString(query)}`,
  metrics: (query) => `#/metrics${queryString(query)}`,
  events: () => "#/events",
};

function queryString(query) {
  const q = new URLSearchParams();
  for (const [k, v] of Object.entries(query ?? {})) if (v !== undefined && v !== null && v !== "") q.set(k, v);
  const s = q.toString();
  return s ? `?${s}` : "";
}

// "a.b" → ["a", "b"] for input fields; namespaces whose names hold dots are entered level by
// level elsewhere.
export function splitNamespace(text) {
  return text ? text.split(".").filter((p) => p !== "") : [];
}
