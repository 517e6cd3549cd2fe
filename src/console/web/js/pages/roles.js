// Principal roles and catalog roles (management API), with what may be changed from here:
// creating roles, assigning them, and adding or revoking a catalog role's grants. The server
// decides whether the user may; a refusal is shown as it came.
import * as api from "../api.js";
import { actionButton, asyncSection, code, dataTable, errorBox, fmtTime, h, onSubmit, replace, section } from "../dom.js";
import { link, splitNamespace } from "../links.js";

const enc = encodeURIComponent;

function rolesTable(roles, href, testid) {
  return dataTable([
    { label: "Name", value: (r) => h("a", { href: href(r.name) }, r.name) },
    { label: "Created", value: (r) => fmtTime(r.createTimestamp) },
    { label: "Updated", value: (r) => fmtTime(r.lastUpdateTimestamp) },
  ], roles, { empty: "No roles.", testid });
}

// A list that reloads after a change made below it.
function reloadable(load) {
  const el = h("div", {}, h("p", { class: "muted" }, "Loading…"));
  const reload = async () => {
    try {
      replace(el, await load());
    } catch (err) {
      replace(el, errorBox(err));
    }
  };
  return { el, reload };
}

// ---- principal roles ----------------------------------------------------------------------

export async function principalRolesPage(page) {
  const list = reloadable(async () => {
    const body = await api.get(`${api.MGMT}/principal-roles`);
    return rolesTable(body.roles ?? [], link.principalRole, "principal-roles");
  });
  const status = h("div");
  const form = h("form", { class: "inline" },
    h("label", {}, "New principal role", h("input", { name: "name", required: true })),
    h("button", { type: "submit" }, "Create"));
  onSubmit(form, status, async ({ name }) => {
    await api.call("POST", `${api.MGMT}/principal-roles`, { body: { principalRole: { name } } });
    await list.reload();
    return `Created principal role ${name}.`;
  });
  page.append(h("h1", {}, "Principal roles"), h("section", {}, list.el, form, status));
  await list.reload();
}

export async function principalRolePage(page, { role }) {
  const path = `${api.MGMT}/principal-roles/${enc(role)}`;
  const status = h("div");
  const catalogRoles = reloadable(async () => {
    const catalogs = (await api.get(`${api.MGMT}/catalogs`)).catalogs ?? [];
    const rows = [];
    const errors = [];
    for (const c of catalogs) {
      try {
        const body = await api.get(`${path}/catalog-roles/${enc(c.name)}`);
        for (const r of body.roles ?? []) rows.push({ catalog: c.name, role: r.name });
      } catch (err) {
        errors.push(errorBox(err));
      }
    }
    return [dataTable([
      { label: "Catalog", value: (r) => h("a", { href: link.catalog(r.catalog) }, r.catalog) },
      { label: "Catalog role", value: (r) => h("a", { href: link.catalogRole(r.catalog, r.role) }, r.role) },
      { label: "", value: (r) => actionButton("Revoke", status, async () => {
        await api.call("DELETE", `${path}/catalog-roles/${enc(r.catalog)}/${enc(r.role)}`);
        await catalogRoles.reload();
      }) },
    ], rows, { empty: "No catalog roles assigned.", testid: "catalog-roles-of" }), errors];
  });
  const form = h("form", { class: "inline" },
    h("label", {}, "Catalog", h("input", { name: "catalog", required: true })),
    h("label", {}, "Catalog role", h("input", { name: "catalogRole", required: true })),
    h("button", { type: "submit" }, "Assign"));
  onSubmit(form, status, async ({ catalog, catalogRole }) => {
    await api.call("PUT", `${path}/catalog-roles/${enc(catalog)}`, { body: { catalogRole: { name: catalogRole } } });
    await catalogRoles.reload();
    return `Assigned catalog role ${catalogRole} of ${catalog}.`;
  });
  page.append(
    h("div", { class: "crumbs" }, h("a", { href: link.principalRoles() }, "Principal roles"), " / ", role),
    h("h1", {}, `Principal role ${role}`),
    asyncSection("Principals holding it", async () => {
      const body = await api.get(`${path}/principals`);
      return dataTable([
        { label: "Principal", value: (p) => h("a", { href: link.principal(p.name) }, p.name) },
      ], body.principals ?? [], { empty: "No principals." });
    }),
    h("section", {}, h("h2", {}, "Catalog roles"), catalogRoles.el, form, status));
  await catalogRoles.reload();
}

// ---- catalog roles ------------------------------------------------------------------------

export async function catalogRolesPage(page, { catalog }) {
  const base = `${api.MGMT}/catalogs/${enc(catalog)}/catalog-roles`;
  const list = reloadable(async () => {
    const body = await api.get(base);
    return rolesTable(body.roles ?? [], (name) => link.catalogRole(catalog, name), "catalog-roles");
  });
  const status = h("div");
  const form = h("form", { class: "inline" },
    h("label", {}, "New catalog role", h("input", { name: "name", required: true })),
    h("button", { type: "submit" }, "Create"));
  onSubmit(form, status, async ({ name }) => {
    await api.call("POST", base, { body: { catalogRole: { name } } });
    await list.reload();
    return `Created catalog role ${name}.`;
  });
  page.append(
    h("div", { class: "crumbs" }, h("a", { href: link.catalogs() }, "Catalogs"), " / ",
      h("a", { href: link.catalog(catalog) }, catalog), " / roles"),
    h("h1", {}, `Catalog roles of ${catalog}`),
    h("section", {}, list.el, form, status));
  await list.reload();
}

// What a grant is on, as text: "catalog", "namespace a.b", "table a.b.t", "view a.v".
function securable(g) {
  const ns = (g.namespace ?? []).join(".");
  switch (g.type) {
    case "namespace": return `namespace ${ns}`;
    case "table": return `table ${ns}.${g.tableName}`;
    case "view": return `view ${ns}.${g.viewName}`;
    default: return g.type;
  }
}

function grantBody({ type, namespace, name, privilege }) {
  const grant = { type, privilege };
  if (type !== "catalog") grant.namespace = splitNamespace(namespace);
  if (type === "table") grant.tableName = name;
  if (type === "view") grant.viewName = name;
  return grant;
}

export async function catalogRolePage(page, { catalog, role }) {
  const path = `${api.MGMT}/catalogs/${enc(catalog)}/catalog-roles/${enc(role)}`;
  const status = h("div", { id: "grant-status" });
  const grants = reloadable(async () => {
    const body = await api.get(`${path}/grants`);
    return dataTable([
      { label: "Privilege", value: (g) => h("span", { class: "grant-privilege" }, g.privilege) },
      { label: "On", value: (g) => h("span", { class: "grant-securable" }, securable(g)) },
      { label: "", value: (g) => actionButton("Revoke", status, async () => {
        await api.call("POST", `${path}/grants`, { body: { grant: g } });
        await grants.reload();
        return `Revoked ${g.privilege} on ${securable(g)}.`;
      }) },
    ], body.grants ?? [], { empty: "No grants.", testid: "grants" });
  });

  const type = h("select", { name: "type", id: "grant-type" },
    ["catalog", "namespace", "table", "view"].map((t) => h("option", { value: t }, t)));
  const privilege = h("select", { name: "privilege", id: "grant-privilege" });
  const namespace = h("label", {}, "Namespace (a.b)", h("input", { name: "namespace", id: "grant-namespace" }));
  const name = h("label", {}, "Table or view", h("input", { name: "name", id: "grant-name" }));
  const syncType = () => {
    const t = type.value;
    replace(privilege, api.grantable(t).map((p) => h("option", { value: p }, p)));
    namespace.hidden = t === "catalog";
    name.hidden = t !== "table" && t !== "view";
  };
  type.addEventListener("change", syncType);
  syncType();
  const form = h("form", { class: "inline", id: "grant-form" },
    h("label", {}, "On", type), namespace, name, h("label", {}, "Privilege", privilege),
    h("button", { type: "submit", id: "grant-submit" }, "Add grant"));
  onSubmit(form, status, async (values) => {
    const grant = grantBody(values);
    await api.call("PUT", `${path}/grants`, { body: { grant } });
    await grants.reload();
    return `Granted ${grant.privilege} on ${securable(grant)}.`;
  });

  page.append(
    h("div", { class: "crumbs" }, h("a", { href: link.catalogs() }, "Catalogs"), " / ",
      h("a", { href: link.catalog(catalog) }, catalog), " / ",
      h("a", { href: link.catalogRoles(catalog) }, "roles"), " / ", role),
    h("h1", {}, `Catalog role ${role} in ${catalog}`),
    h("section", {}, h("h2", {}, "Grants"), grants.el, h("h2", {}, "Add a grant"), form, status),
    asyncSection("Principal roles holding it", async () => {
      const body = await api.get(`${path}/principal-roles`);
      return dataTable([
        { label: "Principal role", value: (r) => h("a", { href: link.principalRole(r.name) }, r.name) },
      ], body.roles ?? [], { empty: "No principal roles." });
    }),
    section("Audit", h("a", { href: link.audit({ catalog, objectPrefix: "grant" }) }, "Grant changes in this catalog")));
  await grants.reload();
}
