// Iceberg schemas for display: nested types flattened into one row per field ("a.b" for a
// struct's field, "a.element" / "a.key" / "a.value" inside lists and maps).
import { code, dataTable } from "./dom.js";

export function typeName(type) {
  if (typeof type === "string") return type;
  switch (type?.type) {
    case "struct": return "struct";
    case "list": return `list<${typeName(type.element)}>`;
    case "map": return `map<${typeName(type.key)}, ${typeName(type.value)}>`;
    default: return JSON.stringify(type);
  }
}

// [{id, path, type, required, doc}] in schema order.
export function flattenFields(fields, prefix = "", out = []) {
  for (const f of fields ?? []) {
    const path = prefix + f.name;
    out.push({ id: f.id, path, type: typeName(f.type), required: f.required, doc: f.doc });
    nested(f.type, path, out);
  }
  return out;
}

function nested(type, path, out) {
  if (typeof type !== "object" || type === null) return;
  if (type.type === "struct") flattenFields(type.fields, `${path}.`, out);
  if (type.type === "list") {
    out.push({ id: type["element-id"], path: `${path}.element`, type: typeName(type.element), required: type["element-required"] });
    nested(type.element, `${path}.element`, out);
  }
  if (type.type === "map") {
    out.push({ id: type["key-id"], path: `${path}.key`, type: typeName(type.key), required: true });
    out.push({ id: type["value-id"], path: `${path}.value`, type: typeName(type.value), required: type["value-required"] });
    nested(type.value, `${path}.value`, out);
  }
}

export function schemaTable(schema, testid) {
  return dataTable([
    { label: "Id", value: (f) => f.id, num: true },
    { label: "Field", value: (f) => code(f.path) },
    { label: "Type", value: (f) => code(f.type) },
    { label: "Required", value: (f) => (f.required ? "required" : "optional") },
    { label: "Doc", value: (f) => f.doc ?? "" },
  ], flattenFields(schema?.fields), { empty: "No fields.", testid });
}

// Field id → path, over every schema given (partition and sort fields name source ids).
export function fieldNames(schemas) {
  const names = new Map();
  for (const s of schemas ?? []) for (const f of flattenFields(s.fields)) names.set(String(f.id), f.path);
  return names;
}
