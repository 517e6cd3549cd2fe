// One view (Iceberg loadView): the current version's SQL and schema, every version, the version
// log and the properties.
import * as api from "../api.js";
import { code, dataTable, details, fmtTime, h, kv, pre, section } from "../dom.js";
import { NS_SEP } from "../links.js";
import { schemaTable } from "../schema.js";
import { crumbs, propertiesTable } from "./catalogs.js";

export async function viewPage(page, { catalog, namespace, view }) {
  const ns = namespace.split(NS_SEP);
  page.append(crumbs(catalog, ns, view), h("h1", {}, `View ${ns.join(".")}.${view}`));
  const base = await api.catalogBase(catalog);
  const loaded = await api.get(`${base}/namespaces/${api.nsPath(ns)}/views/${encodeURIComponent(view)}`);
  const m = loaded.metadata ?? {};
  const versions = [...(m.versions ?? [])].sort((a, b) => Number(b["version-id"]) - Number(a["version-id"]));
  const current = versions.find((v) => String(v["version-id"]) === String(m["current-version-id"]));
  const schema = (m.schemas ?? []).find((s) => String(s["schema-id"]) === String(current?.["schema-id"]));
  page.append(
    section("Overview", kv([
      ["Metadata location", code(loaded["metadata-location"] ?? "")],
      ["Location", code(m.location ?? "")],
      ["View UUID", code(m["view-uuid"] ?? "")],
      ["Format version", m["format-version"]],
      ["Current version", m["current-version-id"]],
      ["Default namespace", (current?.["default-namespace"] ?? []).join(".")],
      ["Default catalog", current?.["default-catalog"]],
    ])),
    section("SQL", (current?.representations ?? []).map((r) =>
      h("div", { "data-testid": "view-sql" }, h("p", { class: "muted" }, `${r.type ?? ""} ${r.dialect ?? ""}`), pre(r.sql ?? "")))),
    section(`Schema ${schema ? schema["schema-id"] : ""}`, schemaTable(schema, "view-schema")),
    section(`Versions (${versions.length})`, dataTable([
      { label: "Version", value: (v) => v["version-id"], num: true },
      { label: "Created", value: (v) => fmtTime(v["timestamp-ms"]) },
      { label: "Schema", value: (v) => v["schema-id"], num: true },
      { label: "Summary", value: (v) => kv(Object.entries(v.summary ?? {}).map(([k, x]) => [k, String(x)])) },
      { label: "SQL", value: (v) => details(`${(v.representations ?? []).length} representation(s)`,
        (v.representations ?? []).map((r) => pre(`-- ${r.dialect ?? ""}\n${r.sql ?? ""}`))) },
    ], versions, { testid: "view-versions", rowClass: (v) => (v === current ? "current" : null) })),
    section("Version log", dataTable([
      { label: "At", value: (e) => fmtTime(e["timestamp-ms"]) },
      { label: "Version", value: (e) => e["version-id"], num: true },
    ], [...(m["version-log"] ?? [])].reverse())),
    section("Properties", propertiesTable(m.properties)));
}
