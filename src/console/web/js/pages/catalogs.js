// Catalogs (management API) and one catalog: its details and its top-level namespaces (Iceberg
// REST, under the catalog's prefix).
import * as api from "../api.js";
import { asyncSection, code, dataTable, fmtTime, h, kv } from "../dom.js";
import { link } from "../links.js";
import { namespacesTable } from "./namespace.js";

export async function catalogsPage(page) {
  page.append(
    h("h1", {}, "Catalogs"),
    asyncSection(null, async () => {
      const body = await api.get(`${api.MGMT}/catalogs`);
      return dataTable([
        { label: "Name", value: (c) => h("a", { href: link.catalog(c.name) }, c.name) },
        { label: "Type", value: (c) => c.type },
        { label: "Storage", value: (c) => c.storageConfigInfo?.storageType ?? "" },
        { label: "Base location", value: (c) => code(c.properties?.["default-base-location"] ?? "") },
        { label: "Created", value: (c) => fmtTime(c.createTimestamp) },
        { label: "", value: (c) => h("a", { href: link.catalogRoles(c.name) }, "roles") },
      ], body.catalogs ?? [], { empty: "No catalog is visible to you.", testid: "catalogs" });
    }));
}

export function crumbs(catalog, ns = [], last) {
  const out = [h("a", { href: link.catalogs() }, "Catalogs"), " / ", h("a", { href: link.catalog(catalog) }, catalog)];
  for (let i = 0; i < ns.length; i++) {
    out.push(" / ", h("a", { href: link.namespace(catalog, ns.slice(0, i + 1)) }, ns[i]));
  }
  if (last) out.push(" / ", last);
  return h("div", { class: "crumbs" }, out);
}

export async function catalogPage(page, { catalog }) {
  page.append(
    crumbs(catalog),
    h("h1", {}, `Catalog ${catalog}`),
    h("p", {}, h("a", { href: link.catalogRoles(catalog) }, "Catalog roles and grants"), " · ",
      h("a", { href: link.audit({ catalog }) }, "Audit trail"), " · ",
      h("a", { href: link.metrics({ catalog }) }, "Metrics reports")),
    asyncSection("Namespaces", () => namespacesTable(catalog, []), { testid: "namespaces" }),
    asyncSection("Details", async () => {
      const c = await api.get(`${api.MGMT}/catalogs/${encodeURIComponent(catalog)}`);
      const storage = c.storageConfigInfo ?? {};
      return [
        kv([
          ["Type", c.type],
          ["Storage type", storage.storageType],
          ["Allowed locations", (storage.allowedLocations ?? []).join(", ")],
          ["Created", fmtTime(c.createTimestamp)],
          ["Last updated", fmtTime(c.lastUpdateTimestamp)],
          ["Entity version", c.entityVersion],
        ]),
        h("h2", {}, "Properties"),
        propertiesTable(c.properties),
      ];
    }));
}

export function propertiesTable(properties, testid) {
  const rows = Object.entries(properties ?? {}).sort(([a], [b]) => a.localeCompare(b));
  return dataTable([
    { label: "Key", value: ([k]) => code(k) },
    { label: "Value", value: ([, v]) => String(v) },
  ], rows, { empty: "No properties.", testid });
}
