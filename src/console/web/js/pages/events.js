// Event sinks (GET/POST/DELETE /api/management/v1/event-sinks; docs/events.md): the webhooks
// that receive the change feed, each with its delivery state, a form to add one and a button
// to stop one. A secret typed into the form goes to the server once and is never shown again
// (the API says only whether a sink signs). The change history itself is the audit view.
import * as api from "../api.js";
import { actionButton, code, dataTable, errorBox, fmtTime, h, onSubmit, replace, section } from "../dom.js";
import { link } from "../links.js";

const enc = encodeURIComponent;
const SINKS = `${api.MGMT}/event-sinks`;

function deliveryCell(d) {
  if (!d) return "";
  return h("span", {}, `${d.delivered ?? 0} delivered`, d.deliveredThrough ? [" through ", code(d.deliveredThrough)] : null);
}

function stateCell(d) {
  if (!d) return "";
  if (d.failures > 0) {
    return h("span", { class: "sink-failing" },
      `${d.failures} failure${d.failures === 1 ? "" : "s"}: ${d.lastError ?? "?"}; next try ${fmtTime(d.nextAttempt)}`);
  }
  return h("span", { class: "sink-ok" }, d.lastSuccess ? `ok, last ${fmtTime(d.lastSuccess)}` : "nothing sent yet");
}

export async function eventsPage(page) {
  const list = h("div");
  const status = h("div");
  const load = async () => {
    try {
      const body = await api.get(SINKS);
      replace(list, dataTable([
        { label: "Name", value: (s) => s.name, class: "sink-name" },
        { label: "URL", value: (s) => code(s.url) },
        { label: "Catalog", value: (s) => s.catalog ? h("a", { href: link.catalog(s.catalog) }, s.catalog) : "every catalog" },
        { label: "Operations", value: (s) => (s.operations?.length ? s.operations.join(", ") : "all") },
        { label: "Signed", value: (s) => (s.signed ? "yes" : "no") },
        { label: "Created", value: (s) => fmtTime(s.created) },
        { label: "Delivered", value: (s) => deliveryCell(s.delivery), class: "sink-delivered" },
        { label: "State", value: (s) => stateCell(s.delivery), class: "sink-state" },
        { label: "Leased by", value: (s) => s.delivery?.leasedBy ?? "" },
        { label: "", value: (s) => actionButton("Delete", status, async () => {
          await api.call("DELETE", `${SINKS}/${enc(s.name)}`);
          await load();
        }, { "data-sink": s.name }) },
      ], body.eventSinks ?? [], { empty: "No event sinks.", testid: "event-sinks" }));
    } catch (err) {
      replace(list, errorBox(err));
    }
  };
  const form = h("form", { class: "inline", id: "sink-form" },
    h("label", {}, "Name", h("input", { name: "name", required: true })),
    h("label", {}, "URL", h("input", { name: "url", required: true, placeholder: "https://…" })),
    h("label", {}, "Secret (optional)", h("input", { name: "secret", type: "password", autocomplete: "new-password" })),
    h("label", {}, "Catalog (optional)", h("input", { name: "catalog" })),
    h("label", {}, "Operations (optional)", h("input", { name: "operations", placeholder: "e.g. createTable, updateTable" })),
    h("label", {}, "From", h("select", { name: "from" },
      h("option", { value: "now" }, "now on"),
      h("option", { value: "start" }, "the start of the feed"))),
    h("button", { type: "submit", id: "sink-create" }, "Create"));
  onSubmit(form, status, async (v) => {
    const body = { name: v.name, url: v.url, from: v.from };
    if (v.secret) body.secret = v.secret;
    if (v.catalog) body.catalog = v.catalog;
    const operations = (v.operations ?? "").split(",").map((o) => o.trim()).filter((o) => o !== "");
    if (operations.length) body.operations = operations;
    await api.call("POST", SINKS, { body });
    form.reset();
    await load();
    return `Created event sink ${v.name}.`;
  });
  page.append(
    h("h1", {}, "Event sinks"),
    h("p", { class: "muted" }, "Webhooks that receive every change as a CloudEvent, in commit order, at least once. ",
      h("a", { href: link.audit({ outcome: "success" }) }, "The changes themselves"), " are in the audit trail."),
    h("section", { "data-testid": "event-sinks-section" }, list),
    section("New event sink", form, status));
  await load();
}
