// Stored metrics reports (GET /api/management/v1/catalogs/{c}/namespaces/{ns}/tables/{t}/
// metrics-reports): the scan and commit reports engines sent for a table, oldest first, a page
// at a time (afterId / next). On a server that does not serve that endpoint the section says so
// instead of failing.
import * as api from "../api.js";
import { code, dataTable, details, errorBox, fmtTime, h, kv, onSubmit, pre, replace, section } from "../dom.js";
import { link, splitNamespace } from "../links.js";

const PAGE = 50;

function unsupported(err) {
  return err?.status === 404 && /no route/i.test(err.message ?? "");
}

function metricText(m) {
  if (m === null || typeof m !== "object") return String(m);
  if (m.value !== undefined) return `${m.value}${m.unit && m.unit !== "count" ? ` ${m.unit}` : ""}`;
  if (m["total-duration"] !== undefined) return `${m["total-duration"]} (${m.count ?? "?"}×, ${m["time-unit"] ?? ""})`;
  return JSON.stringify(m);
}

function reportSummary(r) {
  const report = r.report ?? {};
  const pairs = [];
  if (report["snapshot-id"] !== undefined) pairs.push(["snapshot", String(report["snapshot-id"])]);
  if (report.operation) pairs.push(["operation", report.operation]);
  if (report.filter !== undefined) pairs.push(["filter", typeof report.filter === "string" ? report.filter : JSON.stringify(report.filter)]);
  for (const [k, v] of Object.entries(report.metrics ?? {})) pairs.push([k, metricText(v)]);
  return details(`${pairs.length} values`, kv(pairs), details("JSON", pre(report)));
}

function reportsTable(reports, withTable) {
  return dataTable([
    { label: "Id", value: (r) => r.id, num: true },
    { label: "Received", value: (r) => fmtTime(r.receivedMs) },
    { label: "Type", value: (r) => r.reportType },
    withTable ? { label: "Table", value: () => h("a", { href: link.table(withTable.catalog, withTable.namespace, withTable.table) }, `${withTable.catalog}: ${[...withTable.namespace, withTable.table].join(".")}`) } : null,
    { label: "Report", value: reportSummary },
  ].filter(Boolean), reports, { empty: "No metrics reports.", testid: "metrics-reports" });
}

// Reports of one table (`filter`: catalog, namespace [parts], table, type) into `into`, with
// a "More" button while the server has a next page.
async function loadInto(into, filter, withTable) {
  if (!filter.catalog || !filter.namespace?.length || !filter.table) {
    replace(into, h("p", { class: "muted" }, "Name a catalog, a namespace and a table."));
    return;
  }
  const path = `${api.MGMT}/catalogs/${encodeURIComponent(filter.catalog)}/namespaces/` +
    `${api.nsPath(filter.namespace)}/tables/${encodeURIComponent(filter.table)}/metrics-reports`;
  const query = { type: filter.type || undefined, limit: PAGE };
  const rows = [];
  const more = h("button", { type: "button", class: "secondary" }, "More");
  const status = h("div");
  const fetchPage = async (afterId) => {
    more.disabled = true;
    try {
      const body = await api.get(path, { ...query, afterId });
      rows.push(...(body?.reports ?? []));
      replace(into, reportsTable(rows, withTable ? filter : null), status);
      if (body?.next !== null && body?.next !== undefined) {
        more.onclick = () => fetchPage(body.next);
        more.disabled = false;
        into.append(more);
      }
    } catch (err) {
      if (unsupported(err)) {
        replace(into, h("p", { class: "muted", "data-testid": "metrics-unsupported" },
          "This server does not serve stored metrics reports (no metrics-reports endpoint)."));
      } else {
        replace(status, errorBox(err));
        if (!rows.length) replace(into, status);
      }
    }
  };
  await fetchPage(undefined);
}

// The section on a table's page.
export function reportsSection({ catalog, namespace, table }) {
  const body = h("div", {}, h("p", { class: "muted" }, "Loading…"));
  loadInto(body, { catalog, namespace, table }, false);
  return h("section", { "data-testid": "table-metrics" }, h("h2", {}, "Metrics reports"), body);
}

export async function metricsPage(page, _params, query) {
  const filter = Object.fromEntries(["catalog", "namespace", "table", "type"].map((k) => [k, query.get(k) ?? ""]));
  const form = h("form", { class: "inline" },
    h("label", {}, "Catalog", h("input", { name: "catalog", value: filter.catalog })),
    h("label", {}, "Namespace (a.b)", h("input", { name: "namespace", value: filter.namespace })),
    h("label", {}, "Table", h("input", { name: "table", value: filter.table })),
    h("label", {}, "Type", h("select", { name: "type" },
      ["", "scan-report", "commit-report"].map((t) => h("option", { value: t, selected: t === filter.type }, t || "any")))),
    h("button", { type: "submit" }, "Show"));
  onSubmit(form, h("div"), (values) => {
    window.location.hash = link.metrics(values);
  });
  const results = h("div", {}, h("p", { class: "muted" }, "Loading…"));
  page.append(h("h1", {}, "Metrics reports"), section("Filter", form), h("section", {}, results));
  await loadInto(results, { ...filter, namespace: splitNamespace(filter.namespace) }, true);
}
