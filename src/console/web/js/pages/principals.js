// Principals (management API): the list, and one principal with its principal roles.
import * as api from "../api.js";
import { actionButton, asyncSection, code, dataTable, errorBox, fmtTime, h, kv, onSubmit, replace } from "../dom.js";
import { link } from "../links.js";
import { propertiesTable } from "./catalogs.js";

const enc = encodeURIComponent;

export async function principalsPage(page) {
  page.append(
    h("h1", {}, "Principals"),
    asyncSection(null, async () => {
      const body = await api.get(`${api.MGMT}/principals`);
      return dataTable([
        { label: "Name", value: (p) => h("a", { href: link.principal(p.name) }, p.name) },
        { label: "Client id", value: (p) => code(p.clientId ?? "") },
        { label: "Created", value: (p) => fmtTime(p.createTimestamp) },
        { label: "Updated", value: (p) => fmtTime(p.lastUpdateTimestamp) },
      ], body.principals ?? [], { empty: "No principals.", testid: "principals" });
    }, { testid: "principals-section" }));
}

export async function principalPage(page, { principal }) {
  const path = `${api.MGMT}/principals/${enc(principal)}`;
  const roles = h("div");
  const status = h("div");
  const loadRoles = async () => {
    try {
      const body = await api.get(`${path}/principal-roles`);
      replace(roles, dataTable([
        { label: "Principal role", value: (r) => h("a", { href: link.principalRole(r.name) }, r.name) },
        { label: "", value: (r) => actionButton("Revoke", status, async () => {
          await api.call("DELETE", `${path}/principal-roles/${enc(r.name)}`);
          await loadRoles();
        }) },
      ], body.roles ?? [], { empty: "No principal roles.", testid: "principal-roles-of" }));
    } catch (err) {
      replace(roles, errorBox(err));
    }
  };
  const form = h("form", { class: "inline" },
    h("label", {}, "Principal role", h("input", { name: "role", required: true })),
    h("button", { type: "submit" }, "Assign"));
  onSubmit(form, status, async ({ role }) => {
    await api.call("PUT", `${path}/principal-roles`, { body: { principalRole: { name: role } } });
    await loadRoles();
    return `Assigned principal role ${role}.`;
  });
  page.append(
    h("div", { class: "crumbs" }, h("a", { href: link.principals() }, "Principals"), " / ", principal),
    h("h1", {}, `Principal ${principal}`),
    asyncSection("Details", async () => {
      const p = await api.get(path);
      return [kv([
        ["Client id", code(p.clientId ?? "")],
        ["Created", fmtTime(p.createTimestamp)],
        ["Updated", fmtTime(p.lastUpdateTimestamp)],
        ["Entity version", p.entityVersion],
      ]), h("h2", {}, "Properties"), propertiesTable(p.properties)];
    }),
    h("section", {}, h("h2", {}, "Principal roles"), roles, form, status));
  await loadRoles();
}
