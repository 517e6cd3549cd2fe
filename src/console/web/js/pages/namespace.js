// One namespace: its child namespaces, tables and views, and its properties.
import * as api from "../api.js";
import { asyncSection, dataTable, h } from "../dom.js";
import { link, NS_SEP } from "../links.js";
import { crumbs, propertiesTable } from "./catalogs.js";

// The namespaces directly under `parent` ([] = the catalog's top level), as a table of links.
export async function namespacesTable(catalog, parent) {
  const base = await api.catalogBase(catalog);
  const query = parent.length ? { parent: parent.join(NS_SEP) } : {};
  const namespaces = await api.listAll(`${base}/namespaces`, "namespaces", query);
  return dataTable([
    { label: "Namespace", value: (ns) => h("a", { href: link.namespace(catalog, ns) }, ns.join(".")) },
  ], namespaces, { empty: "No namespaces.", testid: "namespace-list" });
}

export async function namespacePage(page, { catalog, namespace }) {
  const ns = namespace.split(NS_SEP);
  const nsUrl = async () => `${await api.catalogBase(catalog)}/namespaces/${api.nsPath(ns)}`;
  page.append(
    crumbs(catalog, ns),
    h("h1", {}, `Namespace ${ns.join(".")}`),
    h("div", { class: "grid2" },
      asyncSection("Tables", async () => {
        const ids = await api.listAll(`${await nsUrl()}/tables`, "identifiers");
        return dataTable([
          { label: "Table", value: (id) => h("a", { href: link.table(catalog, id.namespace, id.name) }, id.name) },
        ], ids, { empty: "No tables.", testid: "tables" });
      }, { testid: "tables-section" }),
      asyncSection("Views", async () => {
        const ids = await api.listAll(`${await nsUrl()}/views`, "identifiers");
        return dataTable([
          { label: "View", value: (id) => h("a", { href: link.view(catalog, id.namespace, id.name) }, id.name) },
        ], ids, { empty: "No views.", testid: "views" });
      }, { testid: "views-section" })),
    asyncSection("Namespaces inside", () => namespacesTable(catalog, ns)),
    asyncSection("Properties", async () => {
      const body = await api.get(await nsUrl());
      return propertiesTable(body.properties);
    }));
}
