// One table (Iceberg loadTable): schema, partition spec, sort order, snapshots with their
// summaries, refs, metadata log, properties, and the stored metrics reports of the table.
import * as api from "../api.js";
import { asyncSection, code, dataTable, details, fmtTime, h, kv, section } from "../dom.js";
import { link, NS_SEP } from "../links.js";
import { fieldNames, schemaTable } from "../schema.js";
import { crumbs, propertiesTable } from "./catalogs.js";
import { reportsSection } from "./metrics.js";

export async function tablePage(page, { catalog, namespace, table }) {
  const ns = namespace.split(NS_SEP);
  page.append(crumbs(catalog, ns, table), h("h1", {}, `Table ${ns.join(".")}.${table}`));
  const body = h("div", {}, h("p", { class: "muted" }, "Loading…"));
  page.append(body);
  const base = await api.catalogBase(catalog);
  const loaded = await api.get(`${base}/namespaces/${api.nsPath(ns)}/tables/${encodeURIComponent(table)}`);
  body.replaceChildren(...tableSections(loaded, catalog, ns, table));
}

function tableSections(loaded, catalog, ns, table) {
  const m = loaded.metadata ?? {};
  const names = fieldNames(m.schemas);
  const currentSchema = (m.schemas ?? []).find((s) => String(s["schema-id"]) === String(m["current-schema-id"]));
  const spec = (m["partition-specs"] ?? []).find((s) => String(s["spec-id"]) === String(m["default-spec-id"]));
  const order = (m["sort-orders"] ?? []).find((s) => String(s["order-id"]) === String(m["default-sort-order-id"]));
  const current = m["current-snapshot-id"] === undefined || m["current-snapshot-id"] === null ? null : String(m["current-snapshot-id"]);
  const snapshots = [...(m.snapshots ?? [])].sort((a, b) => Number(b["timestamp-ms"]) - Number(a["timestamp-ms"]));
  return [
    section("Overview", kv([
      ["Metadata location", code(loaded["metadata-location"] ?? "")],
      ["Location", code(m.location ?? "")],
      ["Table UUID", code(m["table-uuid"] ?? "")],
      ["Format version", m["format-version"]],
      ["Current snapshot", current ?? "none"],
      ["Last updated", fmtTime(m["last-updated-ms"])],
      ["Last sequence number", m["last-sequence-number"]],
    ]), h("p", {}, h("a", { href: link.audit({ catalog, objectPrefix: `table ${[...ns, table].join(".")}` }) }, "Audit trail of this table"))),
    h("div", { class: "grid2" },
      section(`Schema ${currentSchema ? currentSchema["schema-id"] : ""}`, schemaTable(currentSchema, "schema")),
      h("div", {},
        section(`Partition spec ${spec ? spec["spec-id"] : ""}`, dataTable([
          { label: "Field", value: (f) => code(f.name) },
          { label: "Source", value: (f) => code(names.get(String(f["source-id"])) ?? String(f["source-id"])) },
          { label: "Transform", value: (f) => code(f.transform) },
          { label: "Field id", value: (f) => f["field-id"], num: true },
        ], spec?.fields ?? [], { empty: "Unpartitioned.", testid: "partition-spec" })),
        section("Sort order", dataTable([
          { label: "Source", value: (f) => code(names.get(String(f["source-id"])) ?? String(f["source-id"])) },
          { label: "Transform", value: (f) => code(f.transform) },
          { label: "Direction", value: (f) => f.direction },
          { label: "Nulls", value: (f) => f["null-order"] },
        ], order?.fields ?? [], { empty: "Unsorted." })))),
    section(`Snapshots (${snapshots.length})`, dataTable([
      { label: "Snapshot id", value: (s) => h("span", { class: "mono snapshot-id" }, String(s["snapshot-id"])) },
      { label: "Parent", value: (s) => h("span", { class: "mono" }, s["parent-snapshot-id"] === undefined ? "" : String(s["parent-snapshot-id"])) },
      { label: "Seq", value: (s) => s["sequence-number"] ?? "", num: true },
      { label: "Committed", value: (s) => fmtTime(s["timestamp-ms"]) },
      { label: "Operation", value: (s) => s.summary?.operation ?? "" },
      { label: "Summary", value: (s) => summaryCell(s.summary) },
      { label: "Schema", value: (s) => s["schema-id"] ?? "", num: true },
      { label: "Manifest list", value: (s) => code(s["manifest-list"] ?? "") },
    ], snapshots, {
      empty: "No snapshots.",
      testid: "snapshots",
      rowClass: (s) => (String(s["snapshot-id"]) === current ? "current" : null),
    })),
    h("div", { class: "grid2" },
      section("Refs", dataTable([
        { label: "Name", value: ([name]) => code(name) },
        { label: "Type", value: ([, r]) => r.type },
        { label: "Snapshot id", value: ([, r]) => h("span", { class: "mono" }, String(r["snapshot-id"])) },
        { label: "Retention", value: ([, r]) => retention(r) },
      ], Object.entries(m.refs ?? {}), { empty: "No refs.", testid: "refs" })),
      section("Properties", propertiesTable(m.properties, "table-properties"))),
    section("Metadata log", dataTable([
      { label: "Written", value: (e) => fmtTime(e["timestamp-ms"]) },
      { label: "Metadata file", value: (e) => code(e["metadata-file"]) },
    ], [...(m["metadata-log"] ?? [])].reverse(), { empty: "No earlier metadata files.", testid: "metadata-log" })),
    reportsSection({ catalog, namespace: ns, table }),
  ];
}

function summaryCell(summary) {
  const entries = Object.entries(summary ?? {}).filter(([k]) => k !== "operation");
  if (!entries.length) return "";
  const headline = ["added-records", "deleted-records", "total-records", "added-data-files", "total-data-files"]
    .filter((k) => summary[k] !== undefined).map((k) => `${k}=${summary[k]}`).join(", ");
  return details(headline || `${entries.length} entries`,
    kv(entries.sort(([a], [b]) => a.localeCompare(b)).map(([k, v]) => [k, String(v)])));
}

function retention(ref) {
  const parts = [];
  if (ref["max-ref-age-ms"] !== undefined) parts.push(`max ref age ${ref["max-ref-age-ms"]} ms`);
  if (ref["max-snapshot-age-ms"] !== undefined) parts.push(`max snapshot age ${ref["max-snapshot-age-ms"]} ms`);
  if (ref["min-snapshots-to-keep"] !== undefined) parts.push(`keep ${ref["min-snapshots-to-keep"]}`);
  return parts.join(", ");
}
